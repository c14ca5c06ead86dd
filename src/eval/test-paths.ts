/** A directory that holds tests, by the names ecosystems give it. */
const TEST_DIRS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'testing', 'testdata', '__snapshots__', 'fixtures']);
/** A file that is a test by its name: foo.test.js, foo.spec.ts, foo_test.go, test_foo.py, FooTest.java. */
const TEST_FILE = /(^|[._-])(test|spec)s?\.[A-Za-z0-9]+$|^test_.+\.py$|_test\.(go|py|rs)$|Tests?\.(java|kt|cs)$/;

/**
 * Whether a changed path is part of the tests (mining splits a past fix into its test change and
 * its code change by this): under a test directory, or named as a test file.
 */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const file = parts.at(-1) ?? '';
  return parts.slice(0, -1).some((dir) => TEST_DIRS.has(dir.toLowerCase())) || TEST_FILE.test(file);
}
