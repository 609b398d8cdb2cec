// Three tiers (STYLE.md rule 9): unit (no I/O), integration (real Postgres/Redis/Kafka),
// e2e (every app through HTTP). Integration and e2e need the infrastructure from deploy/local.
const preset = require('./jest.preset.cjs');

module.exports = {
  projects: [
    {
      ...preset,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,deploy}/**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/unit-timeout.ts'],
    },
    {
      ...preset,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/integration-timeout.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.cjs',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.cjs',
    },
    {
      ...preset,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/e2e/support/test-timeout.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.cjs',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.cjs',
    },
  ],
};
