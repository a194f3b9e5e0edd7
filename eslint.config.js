// ESLint (flat config) with typescript-eslint: `npm run lint`, run by .ci/run.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'reports/**', 'node_modules/**', 'probes/node_modules/**', '**/*.d.ts', '.ci/pack-smoke/out/**', '.routecert-build-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // `a.push(...b)` passes every element as an argument: past ~100k elements it throws
      // RangeError (call stack), so an unbounded input crashes it (issue 15).
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name=/^(push|unshift)$/] > SpreadElement", message: 'No `push(...x)` / `unshift(...x)`: an unbounded array overflows the call stack. Use a loop, `concat`, or `for (const v of x) a.push(v)`.' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Library code (the package) never reaches into the command line, the suites or the probes.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['#src/cli/*', '**/cli/**', '**/suites/**', '**/probes/**'], message: 'library code must not import from cli/, suites/ or probes/' }] }],
    },
  },
);
