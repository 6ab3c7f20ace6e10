// `npm run test:multi-instance`: two server processes (the built dist/) on one PostgreSQL and one
// Redis. Needs both servers (PostgreSQL from DATABASE_URL, Redis from REDIS_URL; local defaults).
/** @type {import('jest').Config} */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test/multi-instance'],
  testRegex: '\\.multi-spec\\.ts$',
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60_000,
};
