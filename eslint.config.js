// Lint rules for every workspace: the recommended sets, type-checked (floating and misused promises, awaits of
// non-promises, unsafe `any`). Each file is checked with the tsconfig.json that includes it (projectService); the
// plain JavaScript files no tsconfig includes (this one, scripts/*.mjs, the migrations that must run outside a
// transaction) get TypeScript's default project.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '**/.turbo/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'scripts/*.mjs', 'packages/db/migrations/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Named here although recommendedTypeChecked has them: these are the reason the lint is type-checked.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Off: every hit was an `async` function implementing a Promise-returning interface (fakes, stop(), no-op jobs).
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['apps/*/test/**', 'packages/*/test/**', 'scripts/test/**'],
    rules: {
      // Off in tests: response bodies are parsed JSON (`any`) that the assertions themselves check.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
