import { afterAll } from 'vitest';
import { removeTestContentStore } from '../helpers/session-worker';

// Each test file's embedded content store lives in a temporary directory of its own: removed once
// the file's tests (and their own after-hooks, which run before this one) are done.
afterAll(removeTestContentStore);
