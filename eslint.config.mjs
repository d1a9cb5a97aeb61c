// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * toolrail's parts (docs/architecture.md) and the parts each may import. Another part is reached
 * only through its `index.ts`, never its internals; the package roots (src/index.ts, src/testing.ts)
 * may import every part, through its index too. Tests, benchmarks and examples are not parts: they
 * may import internals. A `deterministic` part runs in the Temporal workflow sandbox: it imports
 * the other parts' code only from deterministic parts (types from any part it may import).
 * @type {Record<string, { folder: string, deterministic?: boolean, mayImport: string[] }>}
 */
const parts = {
  errors: { folder: 'src/errors', deterministic: true, mayImport: [] },
  text: { folder: 'src/text', deterministic: true, mayImport: [] },
  rules: { folder: 'src/rules', deterministic: true, mayImport: [] },
  'model-settings': { folder: 'src/model-settings', deterministic: true, mayImport: ['rules'] },
  dispatch: { folder: 'src/dispatch', deterministic: true, mayImport: ['models'] },
  session: {
    folder: 'src/session',
    deterministic: true,
    mayImport: ['errors', 'text', 'rules', 'model-settings', 'dispatch', 'models', 'store'],
  },
  compaction: {
    folder: 'src/compaction',
    deterministic: true,
    mayImport: ['text', 'model-settings', 'dispatch', 'session', 'models', 'store', 'activities'],
  },
  'child-sessions': {
    folder: 'src/child-sessions',
    deterministic: true,
    mayImport: ['text', 'rules', 'session', 'models', 'workflows', 'activities'],
  },
  workflows: {
    folder: 'workflows',
    deterministic: true,
    mayImport: ['errors', 'text', 'rules', 'dispatch', 'session', 'models', 'activities'],
  },
  store: { folder: 'src/store', mayImport: ['errors', 'text'] },
  models: { folder: 'src/models', mayImport: ['errors', 'model-settings'] },
  tools: { folder: 'src/tools', mayImport: ['errors', 'text', 'dispatch', 'models'] },
  conversation: { folder: 'src/conversation', mayImport: ['text', 'model-settings', 'session', 'models', 'store'] },
  'rules-files': { folder: 'src/rules-files', mayImport: ['rules'] },
  tracing: { folder: 'src/tracing', mayImport: ['rules', 'session'] },
  live: { folder: 'src/live', mayImport: ['errors', 'session'] },
  activities: {
    folder: 'activities',
    mayImport: ['text', 'dispatch', 'session', 'model-settings', 'models', 'tools', 'conversation', 'store', 'live'],
  },
  worker: {
    folder: 'src/worker',
    mayImport: ['errors', 'session', 'compaction', 'activities', 'tools', 'models', 'store', 'tracing', 'live'],
  },
  client: {
    folder: 'src/client',
    mayImport: [
      'errors',
      'workflows',
      'rules',
      'session',
      'model-settings',
      'models',
      'conversation',
      'store',
      'tracing',
      'live',
    ],
  },
  devserver: { folder: 'src/devserver', mayImport: ['errors', 'session'] },
  cli: {
    folder: 'src/cli',
    mayImport: ['errors', 'rules', 'rules-files', 'session', 'store', 'client', 'worker', 'devserver', 'live'],
  },
  'ai-sdk': { folder: 'src/ai-sdk', mayImport: ['errors', 'rules', 'dispatch', 'tools'] },
};
const packageRoots = [
  'src/index.ts',
  'src/client-entry.ts',
  'src/testing.ts',
  'src/ai-sdk-entry.ts',
  'src/workflow-entry.ts',
];

/** `import-x/no-restricted-paths` zones: no part it may not import, and no other part's internals. */
const boundaryZones = [
  ...Object.entries(parts).flatMap(([name, part]) => {
    const others = Object.keys(parts).filter((other) => other !== name);
    const forbidden = others.filter((other) => !part.mayImport.includes(other));
    return forbidden.length === 0
      ? []
      : [
          {
            target: part.folder,
            from: forbidden.map((other) => parts[other].folder),
            message: `${name} may import only ${part.mayImport.join(', ') || 'no other part'} (see eslint.config.mjs, parts).`,
          },
        ];
  }),
  ...Object.entries(parts).map(([name, part]) => ({
    target: [...packageRoots, ...Object.values(parts).flatMap((other) => (other === part ? [] : [other.folder]))],
    from: part.folder,
    except: ['./index.ts'],
    message: `Import ${name} through its index (${part.folder}/index.ts), not its internals.`,
  })),
];

/** The parts whose code runs inside the Temporal workflow sandbox: it must be deterministic. */
const deterministicParts = Object.keys(parts).filter((name) => parts[name].deterministic);
const deterministicFolders = deterministicParts.map((name) => `${parts[name].folder}/**/*.ts`);

/** A relative import of a Node-side part, from any depth (`../tools`, `../../src/models/x`). */
const nodeSideParts = Object.keys(parts).filter((name) => !parts[name].deterministic);
const nodeSidePartImport = `^(\\.\\./)+(src/)?(${nodeSideParts.join('|')})(/|$)`;

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'test-artifacts/', '.toolrail/', 'bin/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    // Resolve the `.ts` files that relative imports name: without it the import-x rules see no
    // project file at all, and find no cycle and no boundary crossing.
    settings: {
      'import-x/extensions': ['.ts', '.js', '.cjs', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.cjs', '.mjs', '.json', '.node'] })],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Parts import one another only through their index.ts, and only the parts they may import.
    files: ['src/**/*.ts', 'workflows/**/*.ts', 'activities/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaryZones }] },
  },
  {
    files: deterministicFolders,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code must be deterministic: no Node built-ins (move I/O to activities/).',
          })),
          patterns: [
            {
              regex: nodeSidePartImport,
              allowTypeImports: true,
              message: `Workflow code may import code only from the deterministic parts (${deterministicParts.join(', ')}), and types from any part.`,
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Timers are not deterministic in workflows.' },
        { name: 'process', message: 'No process access in workflow code.' },
        { name: 'require', message: 'No dynamic require in workflow code.' },
      ],
    },
  },
  {
    // The pure modules also run outside Temporal's sandbox (simulate, the client), where the clock
    // and randomness are real: they take time and ids as inputs instead. Workflow code reads the
    // clock only through workflowNow() (workflows/workflow-now.ts) and ids through uuid4().
    files: deterministicFolders,
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'No clock in deterministic code.' },
        { object: 'Math', property: 'random', message: 'No randomness in deterministic code.' },
        { object: 'crypto', property: 'randomUUID', message: 'Use uuid4() from @temporalio/workflow.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'No clock in deterministic code.',
        },
        { selector: 'ImportExpression', message: 'No dynamic import in deterministic code.' },
      ],
    },
  },
);
