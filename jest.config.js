// ESM all the way: npm test sets NODE_OPTIONS=--experimental-vm-modules (see docs/decisions.md).
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 60_000,
  // Three on the 2-core CI machine: most suites wait on real processes (git, bwrap, servers), and
  // two workers left a third of the CPU idle (1,367 worker-seconds in 702 s, 1.4 cores busy).
  maxWorkers: 3,
  // The slowest files at the end of a run: where the suite's time goes (CI keeps under 15 minutes).
  reporters: ['default', ['<rootDir>/test/support/slowest-suites-reporter.cjs', { count: 20 }]],
};
