import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileTool } from '../../../src/agent/tools/read-file.js';
import { makeFixture, type Fixture } from './helpers/context.js';

describe('read_file', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture({
      'a.txt': 'one\ntwo\nthree\n',
      'crlf.txt': 'one\r\ntwo\r\n',
      'bin.dat': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]),
      'latin1.txt': Buffer.from('caf\xe9\n', 'latin1'),
      'long.txt': `${'x'.repeat(5000)}\nshort\n`,
      'empty.txt': '',
    });
  });
  afterEach(() => fx.cleanup());
  const read = (args: { path: string; offset?: number; limit?: number }) => readFileTool.execute(args, fx.ctx());

  it('shows numbered lines and the total', async () => {
    const r = await read({ path: 'a.txt' });
    expect(r.ok).toBe(true);
    expect(r.output).toBe('     1 │ one\n     2 │ two\n     3 │ three\n(3 lines)');
  });

  it('windows with offset and limit and says how to read more', async () => {
    const r = await read({ path: 'a.txt', offset: 2, limit: 1 });
    expect(r.output).toBe('     2 │ two\n(showing 2–2 of 3 lines; use offset to read more)');
    expect((await read({ path: 'a.txt', offset: 9 })).output).toMatch(/past the end: the file has 3 lines/);
  });

  it('does not show carriage returns', async () => {
    expect((await read({ path: 'crlf.txt' })).output).toBe('     1 │ one\n     2 │ two\n(2 lines)');
  });

  it('refuses directories, binary and non-UTF-8 files', async () => {
    await expect(read({ path: '.' })).rejects.toThrow(/is a directory: use list_files/);
    await expect(read({ path: 'bin.dat' })).rejects.toThrow(/binary file, 5 bytes/);
    await expect(read({ path: 'latin1.txt' })).rejects.toThrow(/binary file, 5 bytes \(not UTF-8 text\)/);
    await expect(read({ path: 'missing.txt' })).rejects.toThrow(/no such file/);
  });

  it('cuts long lines and handles empty files', async () => {
    const r = await read({ path: 'long.txt' });
    expect(r.output).toMatch(/x{2000} …\[line cut: 3000 more chars\]\n {5}2 │ short/);
    expect((await read({ path: 'empty.txt' })).output).toMatch(/empty file/);
  });

  it('windows a 100k-line file quickly', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1} ${'y'.repeat(40)}`);
    writeFileSync(join(fx.root, 'huge.txt'), `${lines.join('\n')}\n`);
    const started = Date.now();
    const r = await read({ path: 'huge.txt', offset: 50_000, limit: 3 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(r.output.split('\n')).toEqual([
      ` 50000 │ line 50000 ${'y'.repeat(40)}`,
      ` 50001 │ line 50001 ${'y'.repeat(40)}`,
      ` 50002 │ line 50002 ${'y'.repeat(40)}`,
      '(showing 50000–50002 of 100000 lines; use offset to read more)',
    ]);
  });
});
