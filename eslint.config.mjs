// @ts-check
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/** Folders whose code runs inside the Temporal workflow sandbox: it must be deterministic. */
const deterministicFolders = [
  'workflows/**/*.ts',
  'src/rules/**/*.ts',
  'src/dispatch/**/*.ts',
  'src/session/**/*.ts',
  'src/kernel/**/*.ts',
];

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
              group: ['**/activities/*', '!**/activities/types'],
              allowTypeImports: true,
              message: 'Workflow code may import activity types only.',
            },
            {
              group: ['**/src/tools/*', '**/src/models/*', '**/src/client/*', '**/src/worker/*', '**/src/cli/*'],
              allowTypeImports: true,
              message: 'Workflow code may import only deterministic modules (rules, dispatch, session, kernel).',
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
    files: [
      'workflows/**/*.ts',
      'src/rules/**/*.ts',
      'src/dispatch/**/*.ts',
      'src/session/**/*.ts',
      'src/kernel/**/*.ts',
    ],
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
