// `npm run test:browser`: the front ends in a real browser (Debian's chromium, driven by
// playwright-core). Kept out of `npm test`, which needs no browser.
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'browser',
  testEnvironment: 'node',
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: path.join(__dirname, '../..'),
  roots: ['<rootDir>/test/browser'],
  testRegex: '\\.browser-spec\\.ts$',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // One browser and one server per file; each step inside has its own, shorter bound.
  testTimeout: 60_000,
  maxWorkers: 1,
};
