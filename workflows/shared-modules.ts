/**
 * Preloaded into the workflow sandbox (the Temporal SDK's `preloadModules`): the pure modules the
 * workflows use, evaluated once per workflow thread and shared by every session it runs.
 *
 * The SDK evaluates a bundle's modules anew for each workflow run, unless they were preloaded; each
 * run of a session then builds the rule kinds, the engine's closures and the messages' definitions
 * again and keeps them while the session is cached. These modules hold no state of a session (only
 * memos of pure functions), so sharing them changes nothing a session does.
 */
import * as dispatch from '../src/dispatch';
import * as rules from '../src/rules';
import * as session from '../src/session';

// The namespaces are read so the bundler keeps every module they export (each is evaluated here).
Object.freeze([dispatch, rules, session]);

export {};
