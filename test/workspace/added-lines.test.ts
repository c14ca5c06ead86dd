import { parseAddedLines } from '../../src/workspace/added-lines.js';

describe('parseAddedLines', () => {
  it('gives each added line its file and new line number; removed lines and deleted files give none', () => {
    const diff = [
      'diff --git src/a.ts src/a.ts',
      '--- src/a.ts',
      '+++ src/a.ts',
      '@@ -2 +2,2 @@',
      '-old',
      '+new one',
      '++ looks like a header',
      '@@ -9,0 +11 @@',
      '+later',
      'diff --git gone.txt gone.txt',
      '--- gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      'diff --git "caf\\303\\251.txt" "caf\\303\\251.txt"',
      '--- /dev/null',
      '+++ "caf\\303\\251.txt"',
      '@@ -0,0 +1 @@',
      '+x',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    expect(parseAddedLines(diff)).toEqual([
      { path: 'src/a.ts', line: 2, text: 'new one' },
      { path: 'src/a.ts', line: 3, text: '+ looks like a header' },
      { path: 'src/a.ts', line: 11, text: 'later' },
      { path: 'café.txt', line: 1, text: 'x' },
    ]);
  });
});
