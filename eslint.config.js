// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // src/wasm/assembly is AssemblyScript (decorators on functions, v128/f32 types), compiled by asc, not tsc
  { ignores: ['dist/**', 'node_modules/**', 'app/dist/**', 'scratch/**', 'coverage/**', 'bin/**', 'src/wasm/assembly/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    // CommonJS on purpose (src/actors/runtime/pool-entry.cjs: piscina require()s it)
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // src/core is pure: no I/O, nothing from node:
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'better-sqlite3', '../store/*', '../memory/*', '../config/*'] }],
    },
  },
);
