import { cleanLog, failingPart } from '../../src/github/failing-part.js';

const ts = (line: string, i = 0) => `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}.1234567Z ${line}`;

describe('cleanLog', () => {
  it('drops ANSI codes, Actions timestamps, carriage-return progress and endgroup markers', () => {
    const log = [ts('\u001b[1m\u001b[31mred\u001b[0m'), ts('progress 10%\rprogress 100%'), ts('##[endgroup]'), 'crlf line\r'].join('\n');
    expect(cleanLog(log)).toEqual(['red', 'progress 100%', 'crlf line']);
  });

  it('keeps a line that only looks like a timestamp later on', () => {
    expect(cleanLog('built at 2024-01-01T00:00:00Z ok')).toEqual(['built at 2024-01-01T00:00:00Z ok']);
  });
});

describe('failingPart', () => {
  it('an Actions log: the failing step, from a few lines before its first error to the ##[error] marker', () => {
    const lines = [
      ts('##[group]Run npm ci'),
      ts('npm WARN deprecated something'),
      ts('##[endgroup]'),
      ts('##[group]Run npm test'),
      ...Array.from({ length: 30 }, (_, i) => ts(`PASS test/ok-${i}.test.js`, i)),
      ts('FAIL test/sum.test.js'),
      ts('  Expected: 3'),
      ts('##[error]Process completed with exit code 1.'),
      ts('Post job cleanup.'),
      ts('Cleaning up orphan processes'),
      ts('more trailing noise'),
    ];
    const part = failingPart(lines.join('\n'), 10_000);
    const kept = part.split('\n');
    expect(kept[0]).toBe('PASS test/ok-22.test.js'); // 8 lines of context before FAIL
    expect(part).toContain('FAIL test/sum.test.js\n  Expected: 3\n##[error]Process completed with exit code 1.');
    expect(kept.at(-1)).toBe('Cleaning up orphan processes'); // two lines after the marker
    expect(part).not.toContain('npm WARN');
  });

  it('an Actions step with no error-looking line keeps the lines before the marker', () => {
    const log = ['##[group]Run make', 'a', 'b', 'c', '##[error]Process completed with exit code 2.'].join('\n');
    expect(failingPart(log, 1000)).toBe('##[group]Run make\na\nb\nc\n##[error]Process completed with exit code 2.');
  });

  it('a plain log: from shortly before the first error line to the end', () => {
    const log = [...Array.from({ length: 20 }, (_, i) => `step ${i}`), 'Traceback (most recent call last):', '  File "x.py"', 'ValueError: bad'].join('\n');
    const part = failingPart(log, 1000);
    expect(part.split('\n')[0]).toBe('step 12');
    expect(part.endsWith('ValueError: bad')).toBe(true);
  });

  it.each([
    ['src/a.ts(3,1): error TS2322: Type mismatch'],
    ['error[E0308]: mismatched types'],
    ["thread 'main' panicked at src/main.rs:2:5"],
    ['npm ERR! Test failed.'],
    ['  ✕ adds numbers (3 ms)'],
  ])('recognises %s as where it goes wrong', (errorLine) => {
    const log = [...Array.from({ length: 50 }, (_, i) => `noise ${i}`), errorLine, 'after'].join('\n');
    const part = failingPart(log, 1000);
    expect(part.split('\n')[0]).toBe('noise 42');
    expect(part).toContain(errorLine);
  });

  it('nothing error-looking: the tail', () => {
    const log = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const part = failingPart(log, 50);
    expect(part.length).toBeLessThanOrEqual(50);
    expect(part.endsWith('line 999')).toBe(true);
  });

  it('caps a huge failing region at maxChars, keeping its start and its end', () => {
    const log = ['FAIL big', ...Array.from({ length: 100_000 }, (_, i) => `detail ${i}`), 'Tests: 1 failed'].join('\n');
    const part = failingPart(log, 4000);
    expect(part.length).toBeLessThanOrEqual(4000);
    expect(part.startsWith('FAIL big')).toBe(true);
    expect(part.endsWith('Tests: 1 failed')).toBe(true);
    expect(part).toContain('bytes elided');
  });

  it('cuts a single enormous line and honours tiny caps', () => {
    const part = failingPart(`Error: ${'x'.repeat(50_000)}`, 3000);
    expect(part.length).toBeLessThanOrEqual(3000);
    expect(part).toContain('line cut');
    expect(failingPart('Error: boom and more', 5)).toHaveLength(5);
    expect(failingPart('', 100)).toBe('');
    expect(failingPart('quiet log', 0)).toBe('');
    expect(failingPart('Error: x', 0)).toBe('');
  });
});
