import { parseReport, readTestReport } from '../../src/verify/parse-report.js';
import { picture, readFixture as read, xmlFixtures } from './report-fixtures.js';

// pytest/passing-run/junit.xml is what `pytest --junitxml` wrote on a run where everything
// passed: planted beside the output of a failing run, it must not turn that run green.
const planted = [{ path: 'reports/junit.xml', content: read('pytest', 'passing-run/junit.xml') }];

describe('readTestReport: report files never replace what the runner printed', () => {
  test('a file that says 0 failed beside an output that says 3 failed is a disagreement, named', () => {
    const reading = readTestReport(read('pytest', 'q.txt'), planted);
    expect(reading).toMatchObject({ agree: false, paths: ['reports/junit.xml'] });
    if (reading.agree) throw new Error('expected a disagreement');
    expect(reading.reason).toBe(
      'the report file junit.xml says 7 passed, 0 failed, 1 skipped (8 in all); the runner printed 4 passed, 3 failed, 1 skipped (8 in all)',
    );
    expect(reading.output.totals.failed).toBe(3);
    expect(reading.files.totals.failed).toBe(0);
  });

  test('parseReport keeps what the runner printed on a disagreement', () => {
    expect(parseReport(read('pytest', 'q.txt'), planted)?.totals.failed).toBe(3);
  });

  test('files of the same run agree: the file that lists every test is used', () => {
    const reading = readTestReport(read('pytest', 'default.txt'), xmlFixtures('pytest'));
    expect(reading).toMatchObject({ agree: true, source: 'both' });
    if (!reading.agree) throw new Error('expected agreement');
    expect(reading.report?.format).toBe('JUnit XML');
    expect(reading.report?.totals).toEqual({ passed: 4, failed: 3, skipped: 1, total: 8 });
  });

  test('an output that lists every test stays the report when the files agree', () => {
    const reading = readTestReport(read('pytest', 'rA.txt'), xmlFixtures('pytest'));
    expect(reading).toMatchObject({ agree: true, source: 'both' });
    if (!reading.agree) throw new Error('expected agreement');
    expect(reading.report?.format).toBe('pytest -rA');
  });

  test('an output that lists every test still disagrees with a file that says otherwise', () => {
    expect(readTestReport(read('pytest', 'rA.txt'), planted).agree).toBe(false);
  });

  test('files alone, when the output has no known format (maven)', () => {
    const reading = readTestReport(read('junit', 'mvn-output.txt'), xmlFixtures('junit'));
    expect(reading).toMatchObject({ agree: true, source: 'files' });
    if (!reading.agree) throw new Error('expected agreement');
    expect(picture(reading.report)).toContain('f:sample.MathTest > subtracts');
  });

  test('no files, or none in JUnit XML: the output alone, or nothing', () => {
    expect(readTestReport(read('pytest', 'q.txt'))).toMatchObject({ agree: true, source: 'output' });
    expect(readTestReport(read('pytest', 'q.txt'), [{ path: 'pom.xml', content: '<project/>' }])).toMatchObject({ agree: true, source: 'output' });
    expect(readTestReport('make: *** [check] Error 2\n')).toEqual({ agree: true, report: null, source: null });
  });

  test('several files are named; their tests count once each', () => {
    const two = [...planted, { path: 'other/junit-b.xml', content: read('pytest', 'junit.xml') }];
    const reading = readTestReport(read('pytest', 'q.txt'), two);
    if (reading.agree) throw new Error('expected a disagreement');
    expect(reading.reason).toMatch(/^the report files junit\.xml, junit-b\.xml say 6 passed, 3 failed, 1 skipped \(10 in all\); the runner printed/);
  });
});
