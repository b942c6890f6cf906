import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build*/**', '.react-router/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**'], message: 'Browser code must not import server code.' }] },
      ],
    },
  },
  {
    // common/ is shared by browser and server: it imports neither.
    files: ['common/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/app/**', '**/server/**'] }],
    },
  },
  {
    // The server never reaches into the browser's code: what both use lives in common/. (Tests may
    // drive the app's route loaders.)
    files: ['server/**'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/app/**'], message: 'Server code must not import from app/: move what both sides use to common/.' }] },
      ],
    },
  },
  {
    files: ['tests/**', 'bench/**', '*.config.ts', '*.config.js'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
