// `npm run test:multi-instance`: server processes (the built dist/) on PostgreSQL, SQLite files and
// Redis: several instances, faults (a database down, locked or slow, Redis down, a start that
// fails), SIGTERM. Needs both servers (PostgreSQL from DATABASE_URL, Redis from REDIS_URL; local
// defaults). One file at a time: a file may stop the PostgreSQL server (TEST_RESTART_POSTGRES).
/** @type {import('jest').Config} */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test/multi-instance'],
  testRegex: '\\.multi-spec\\.ts$',
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60_000,
  maxWorkers: 1,
  // These files run server processes, proxies and traffic loops; what a failing file leaves
  // running is stopped after it, so that jest ends by itself (no forceExit).
  setupFilesAfterEnv: ['<rootDir>/test/multi-instance/leftovers.setup.ts'],
};
