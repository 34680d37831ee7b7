// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

/** Only electron/glue/ touches Electron; everything else must run under plain Node. */
const ELECTRON_GLUE = ['electron/glue/**/*.ts'];

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'http',
  'https',
  'net',
  'url',
  'util',
  'stream',
  'events',
  'worker_threads',
  'buffer',
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'coverage/', 'test-results/', '.electron-native/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: "Only the Electron glue files may import 'electron'." }] },
      ],
    },
  },
  {
    // Type-aware rules: each file is read with the tsconfig that includes it (a promise nobody awaits is a bug).
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.web.json', './tsconfig.shared.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    files: ['electron/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', '*.config.ts', 'eslint.config.js', '*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ELECTRON_GLUE,
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['test/unit/glue/**/*.ts'],
    // Glue tests mock 'electron' with vi.mock; the real module is never loaded.
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared/ is pure TypeScript.' }],
          patterns: [
            { group: NODE_BUILTINS, message: 'shared/ runs in the browser too: no Node modules.' },
            {
              group: ['react', 'react-dom', '../electron/*', '../renderer/*'],
              message: 'shared/ depends on nothing but zod.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'localStorage',
        'process',
        'Buffer',
        'require',
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to the main process only through renderer/api.' }],
          patterns: [
            { group: NODE_BUILTINS, message: 'The renderer runs in a sandboxed browser: no Node modules.' },
            { group: ['**/electron/**'], message: 'The renderer reaches the engine only through renderer/api.' },
          ],
        },
      ],
    },
  },
);
