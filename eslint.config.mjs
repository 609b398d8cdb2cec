import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '**/dist/**',
      'node_modules/**',
      'coverage/**',
      '.data/**',
      'libs/*/index.js',
      'apps/*/bin/**',
      'docs/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@nx': nx },
    rules: {
      curly: ['error', 'all'],
      'max-lines': ['warn', { max: 300, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          // Test files of messaging and persistence import the test kit, which builds on them; production
          // code never imports @cts/testing (no-restricted-imports below), so a cycle through it is test-only.
          ignoredCircularDependencies: [['testing', '*']],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            // Custody keys and the ledger move money: transfer-service alone (ARCHITECTURE §4, §7).
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:testing'] },
            {
              sourceTag: 'scope:money',
              onlyDependOnLibsWithTags: ['scope:money', 'scope:shared', 'scope:testing'],
            },
          ],
        },
      ],
    },
  },
  {
    // Production code never imports the test kit (tests, harnesses under testing/ folders and e2e may).
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/testing/**', 'libs/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@cts/testing', message: 'test code only (specs, testing/ folders, e2e)' }] },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      'max-lines': 'off',
    },
  },
  {
    // Pure domain files: no framework, database or transport code (STYLE.md rule 2).
    files: ['**/*.domain.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@nestjs/*',
            'typeorm',
            'kafkajs',
            'ioredis',
            'pg',
            'express',
            '@cts/messaging',
            '@cts/persistence',
            '@cts/testing',
          ],
        },
      ],
    },
  },
  {
    // Scripts (tools/, deploy/, configs, child processes): plain Node JavaScript, linted without types.
    files: ['**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node }, sourceType: 'module' },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      curly: ['error', 'all'],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  prettier,
);
