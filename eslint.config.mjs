// The JS/TS linter gate (scripts/test.sh): the site's code (TypeScript,
// React islands, Astro components) and the project's Node scripts.
// Recommended rules of ESLint, typescript-eslint, eslint-plugin-astro and
// React's hooks rules (a hook called conditionally or an effect missing a
// dependency is a shopper-facing bug the type checker does not see).
// No import cycle in the site's TypeScript (eslint-plugin-import-x's
// no-cycle with the TypeScript resolver, so `@/` aliases and extensionless
// imports resolve as tsc resolves them): a loop hides which module is the
// base of the others, as module-cycles.mjs holds the Rust crates to.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'sites/**', 'target/**', 'edge/build/**', '.tmp/**', '.tools/**', '.wrangler/**', '**/.astro/**', 'astro-app/src/types/*.generated.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    files: ['astro-app/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['astro-app/src/**/*.{ts,tsx}', 'scripts/**/*.mjs', 'edge/tests/**/*.mjs'],
    plugins: { 'import-x': importX },
    settings: {
      // Files of these kinds are followed (the default is .js only).
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'astro-app/tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Browser code (and the script `dealergen dev` injects into pages).
    files: ['astro-app/src/**/*.{ts,tsx,astro}', 'generator/src/dev/client.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Node code: scripts, tests, configs.
    files: ['scripts/**/*.{mjs,js}', 'edge/tests/**/*.mjs', 'astro-app/test/**/*.{ts,tsx}', '*.mjs', 'astro-app/*.mjs', 'templates/**/*.mjs', 'generator/tests/**/*.{mjs,js}', 'generator/src/run/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // End-to-end tests: functions they pass to page.evaluate run in the browser.
    files: ['scripts/e2e/**/*.mjs', 'scripts/lib/**/*.mjs', 'scripts/pr-pictures/**/*.mjs', 'scripts/budget.mjs'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    rules: {
      // `_name`: deliberately unused (a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-unused-vars': 'off',
      // An empty catch says "failing here is fine" (a process already gone).
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
);
