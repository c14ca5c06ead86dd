// ESM all the way: npm test sets NODE_OPTIONS=--experimental-vm-modules (see docs/decisions.md).
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  // The slowest files at the end of a run: where the suite's time goes (CI keeps under 15 minutes).
  reporters: ['default', ['<rootDir>/test/support/slowest-suites-reporter.cjs', { count: 20 }]],
};
