// Two projects so `npm test` runs everything while `--selectProjects unit|e2e` runs either half.
// Type-checking is the builds' job (`npm run build`, `npm run build:tools`; ts-jest transpiles each
// file in isolation: tsconfig has isolatedModules), which keeps the suite fast.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      rootDir: '.',
      roots: ['<rootDir>/src', '<rootDir>/seeds', '<rootDir>/bench'],
      testRegex: '\\.spec\\.ts$',
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      rootDir: '.',
      roots: ['<rootDir>/test'],
      testRegex: '\\.e2e-spec\\.ts$',
      // Every response a test's server sends is checked against openapi.json.
      setupFilesAfterEnv: ['<rootDir>/test/utils/contract-violations.setup.ts'],
      transform,
    },
  ],
  // A whole-list test on PostgreSQL makes dozens of round trips, and the demo server's test starts
  // a process: on a loaded 2-core CI machine either can pass jest's default 5 s. A hung test still
  // fails, just later. A global option: jest ignores it inside a project.
  testTimeout: 30_000,
  collectCoverageFrom: ['src/**/*.ts', '!src/**/*.spec.ts', '!src/database/migrations/**'],
  coverageDirectory: './coverage',
};
