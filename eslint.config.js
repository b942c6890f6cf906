import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Each folder of app/features is one domain's screens; what two of them share lives in app/lib or
// app/components (the house layout), so a feature never imports another one.
const FEATURES = readdirSync(new URL('./app/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

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
    // The import-x rules find the project's imports (written with the `.ts` extension) with the plain
    // node resolver. Features stay apart (the zones below); cycles are refused in the next block.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: FEATURES.map((name) => ({
            target: `./app/features/${name}`,
            from: './app/features',
            except: [`./${name}`],
            message: 'Features do not import each other: move what both use to app/lib or app/components.',
          })),
        },
      ],
    },
  },
  {
    // Import cycles (issue 27): a module that reaches itself again through its imports loads half
    // initialised and ties two domains together. TypeScript erases `import type`, and so does the
    // rule: a type-only loop is not reported (issue 27 broke the three there were, decision 230).
    // Packages are not followed (ignoreExternal). A test file is imported by nothing, so it cannot be
    // on a cycle. The rule parses every module a
    // second time (about half of the lint's time, decision 230); the parsed modules are kept for the
    // whole run (the default forgets them after 30 s, and a lint run here can take longer).
    files: ['**/*.{ts,tsx,js}'],
    ignores: ['**/*.test.ts', 'tests/e2e/**/*.spec.ts'],
    settings: { 'import-x/cache': { lifetime: Infinity } },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
