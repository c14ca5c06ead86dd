import { parseReport } from '../../src/verify/parse-report.js';
import { parseJunitXml } from '../../src/verify/parse-junit-xml.js';
import { picture, readFixture as read, xmlFixtures as xmlFiles } from './report-fixtures.js';

// The same sample in every JS runner: math > {adds ✓, subtracts ✗, multiplies skipped,
// nested > divides ✓}, top level passes ✓, top level todo, strings > {upper ✓, fails on purpose ✗}.
const JS_ALL = ['f:math > subtracts', 'f:strings > fails on purpose', 'p:math > adds', 'p:math > nested > divides', 'p:strings > upper', 'p:top level passes', 's:math > multiplies', 's:top level todo'];
const JS_FAILED = ['f:math > subtracts', 'f:strings > fails on purpose'];

describe('parseReport on real runner output', () => {
  test.each([
    ['node', 'tap.txt', 'node --test (TAP)'],
    ['node', 'spec.txt', 'node --test (spec)'],
    ['jest', 'json-stdout.txt', 'jest --json'],
    ['jest', 'json-combined.txt', 'jest --json'],
    ['jest', 'verbose.txt', 'jest (verbose)'],
    ['vitest', 'json-stdout.txt', 'vitest --reporter=json'],
    ['vitest', 'json-combined.txt', 'vitest --reporter=json'],
  ])('%s %s: every test, suite path and status (%s)', (runner, file, format) => {
    const r = parseReport(read(runner, file));
    expect(r?.format).toBe(format);
    expect(picture(r)).toEqual(JS_ALL);
    expect(r?.totals).toEqual({ passed: 4, failed: 2, skipped: 2, total: 8 });
    expect(r?.listsPassing).toBe(true);
  });

  test.each([
    ['jest', 'summary.txt', 'jest (summary)'],
    ['vitest', 'default.txt', 'vitest (summary)'],
    ['vitest', 'default-color.txt', 'vitest (summary)'],
  ])('%s %s: the failures by name, the rest as totals (%s)', (runner, file, format) => {
    const r = parseReport(read(runner, file));
    expect(r?.format).toBe(format);
    expect(picture(r)).toEqual(JS_FAILED);
    expect(r?.totals).toEqual({ passed: 4, failed: 2, skipped: 2, total: 8 });
    expect(r?.listsPassing).toBe(false);
  });

  test('mocha spec (no todo in mocha)', () => {
    const r = parseReport(read('mocha', 'spec.txt'));
    expect(r?.format).toBe('mocha (spec)');
    expect(picture(r)).toEqual(JS_ALL.filter((t) => t !== 's:top level todo'));
    expect(r?.totals).toEqual({ passed: 4, failed: 2, skipped: 1, total: 7 });
  });

  test('mocha on a real repository (expressjs/express a3714473, npm test): mocha\'s own totals', () => {
    const r = parseReport(read('mocha', 'express-spec.txt'));
    expect(r?.format).toBe('mocha (spec)');
    expect(r?.totals).toEqual({ passed: 1256, failed: 0, skipped: 4, total: 1260 });
    expect(r?.tests.filter((t) => t.status === 'failed')).toEqual([]);
    expect(r?.tests).toContainEqual({ id: 'app.router > methods > should include GET', status: 'passed' });
  });

  const PYTEST_FAILED = ['f:test_math.py::TestNested::test_param[2]', 'f:test_math.py::test_subtracts', 'f:test_str.py::test_fails_on_purpose'];
  test('pytest -rA: node ids; a skip has only its location', () => {
    const r = parseReport(read('pytest', 'rA.txt'));
    expect(r?.format).toBe('pytest -rA');
    expect(picture(r)).toEqual([
      ...PYTEST_FAILED,
      'p:test_math.py::TestNested::test_divides',
      'p:test_math.py::TestNested::test_param[1]',
      'p:test_math.py::test_adds',
      'p:test_str.py::test_upper',
      's:test_math.py:9',
    ]);
    expect(r?.totals).toEqual({ passed: 4, failed: 3, skipped: 1, total: 8 });
    expect(r?.listsPassing).toBe(true);
  });

  test('pytest without -rA: failures only', () => {
    const r = parseReport(read('pytest', 'default.txt'));
    expect(picture(r)).toEqual(PYTEST_FAILED);
    expect(r?.listsPassing).toBe(false);
    expect(r?.totals).toEqual({ passed: 4, failed: 3, skipped: 1, total: 8 });
  });

  test('pytest -q (the command greenfix detects): the final line has no rule; failures by node id, the rest as totals', () => {
    const r = parseReport(read('pytest', 'q.txt'));
    expect(r?.format).toBe('pytest (summary)');
    expect(picture(r)).toEqual(PYTEST_FAILED);
    expect(r?.totals).toEqual({ passed: 4, failed: 3, skipped: 1, total: 8 });
    expect(r?.listsPassing).toBe(false);
  });

  test('pytest -q -rA: every test', () => {
    const r = parseReport(read('pytest', 'q-rA.txt'));
    expect(r?.format).toBe('pytest -rA');
    expect(picture(r)).toEqual(picture(parseReport(read('pytest', 'rA.txt'))));
    expect(r?.totals).toEqual({ passed: 4, failed: 3, skipped: 1, total: 8 });
    expect(r?.listsPassing).toBe(true);
  });

  test('pytest -q, all passing: dots and one count line', () => {
    const r = parseReport(read('pytest', 'passing-run/q.txt'));
    expect(r).toMatchObject({ format: 'pytest (summary)', tests: [], listsPassing: false });
    expect(r?.totals).toEqual({ passed: 7, failed: 0, skipped: 1, total: 8 });
  });

  test('pytest --junitxml: the XML beats the summary-only output', () => {
    const r = parseReport(read('pytest', 'default.txt'), xmlFiles('pytest'));
    expect(r?.format).toBe('JUnit XML');
    expect(picture(r)).toEqual([
      'f:test_math > test_subtracts',
      'f:test_math.TestNested > test_param[2]',
      'f:test_str > test_fails_on_purpose',
      'p:test_math > test_adds',
      'p:test_math.TestNested > test_divides',
      'p:test_math.TestNested > test_param[1]',
      'p:test_str > test_upper',
      's:test_math > test_multiplies',
    ]);
  });

  const GO_ALL = ['f:example.com/sample > TestNested', 'f:example.com/sample > TestNested/fails_on_purpose', 'f:example.com/sample > TestSubtracts', 'p:example.com/sample > TestAdds', 'p:example.com/sample > TestNested/divides', 'p:example.com/sample > TestUpper', 's:example.com/sample > TestMultiplies'];
  test.each([
    ['json.txt', 'go test -json'],
    ['verbose.txt', 'go test -v'],
  ])('go %s: package > Test/sub (%s)', (file, format) => {
    const r = parseReport(read('go', file));
    expect(r?.format).toBe(format);
    expect(picture(r)).toEqual(GO_ALL);
    expect(r?.listsPassing).toBe(true);
  });

  test('plain go test: the --- FAIL lines, under the package that follows them', () => {
    const r = parseReport(read('go', 'plain.txt'));
    expect(picture(r)).toEqual(GO_ALL.filter((t) => t.startsWith('f:')));
    expect(r?.listsPassing).toBe(false);
  });

  test('cargo test: target > path, fail-fast stops after the lib target', () => {
    expect(picture(parseReport(read('cargo', 'fail-fast.txt')))).toEqual([
      'f:src/lib.rs > tests::subtracts',
      'p:src/lib.rs > tests::adds',
      'p:src/lib.rs > tests::nested::divides',
      's:src/lib.rs > tests::multiplies',
    ]);
    const all = parseReport(read('cargo', 'no-fail-fast.txt'));
    expect(picture(all)).toEqual([
      'f:src/lib.rs > tests::subtracts',
      'f:tests/strings.rs > fails_on_purpose',
      'p:src/lib.rs > tests::adds',
      'p:src/lib.rs > tests::nested::divides',
      'p:tests/strings.rs > upper',
      's:src/lib.rs > tests::multiplies',
    ]);
    expect(all?.totals).toEqual({ passed: 3, failed: 2, skipped: 1, total: 6 });
  });

  test('cargo test: each test keeps its target; a run that stopped at a failing target says which ran', () => {
    const stopped = parseReport(read('cargo', 'fail-fast.txt'));
    expect(stopped?.stoppedEarly).toEqual({ ranTargets: ['src/lib.rs'] });
    expect(stopped?.tests).toContainEqual({ id: 'src/lib.rs > tests::subtracts', status: 'failed', target: 'src/lib.rs' });
    // --no-fail-fast runs every target, one failing or two: nothing was left unreached
    expect(parseReport(read('cargo', 'no-fail-fast.txt'))?.stoppedEarly).toBeUndefined();
    expect(parseReport(read('cargo', 'no-fail-fast-one-target.txt'))?.stoppedEarly).toBeUndefined();
    const all = parseReport(read('cargo', 'all-pass.txt'));
    expect(all?.stoppedEarly).toBeUndefined();
    expect(all?.tests).toContainEqual({ id: 'tests/strings.rs > upper', status: 'passed', target: 'tests/strings.rs' });
    expect(all?.totals).toEqual({ passed: 5, failed: 0, skipped: 1, total: 6 });
  });

  test('maven surefire: JUnit XML files (the console summary alone has no per-test passes)', () => {
    const r = parseReport(read('junit', 'mvn-output.txt'), xmlFiles('junit'));
    expect(r?.format).toBe('JUnit XML');
    expect(picture(r)).toEqual([
      'f:sample.MathTest > subtracts',
      'f:sample.StringsTest > failsOnPurpose',
      'p:sample.MathTest > adds',
      'p:sample.MathTest > divides',
      'p:sample.StringsTest > upper',
      's:sample.MathTest > multiplies',
    ]);
    expect(r?.totals).toEqual({ passed: 3, failed: 2, skipped: 1, total: 6 });
  });

  test('an unknown format is null: exit code only', () => {
    expect(parseReport(read('junit', 'mvn-output.txt'))).toBeNull();
    expect(parseReport('make: *** [check] Error 2\n')).toBeNull();
    expect(parseReport('')).toBeNull();
  });

  test('JUnit XML: entities decoded, error counts as failure, a non-JUnit file is ignored', () => {
    const r = parseJunitXml([
      { path: 'a.xml', content: '<testsuite><testcase classname="a&amp;b" name="x &lt;1&gt;"><error message="boom"/></testcase><testcase classname=\'c\' name=\'y\'/></testsuite>' },
      { path: 'b.xml', content: '<project/>' },
    ]);
    expect(picture(r)).toEqual(['f:a&b > x <1>', 'p:c > y']);
    expect(parseJunitXml([{ path: 'b.xml', content: '<project/>' }])).toBeNull();
  });

  test('a test name repeated keeps the worse status', () => {
    const tap = 'TAP version 13\n# Subtest: same\nnot ok 1 - same\n# Subtest: same\nok 2 - same\n1..2\n';
    expect(picture(parseReport(tap))).toEqual(['f:same']);
  });
});
