import { bundleSessionWorkflows } from '../src/worker/bundle-session-workflows';
bundleSessionWorkflows().then((b) => { const c = b.code; console.log('async_generator helper:', c.includes('_async_generator'), 'object_spread:', c.includes('function _object_spread'), 'len', c.length); });
