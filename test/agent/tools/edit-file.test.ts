import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editFileTool } from '../../../src/agent/tools/edit-file.js';
import { makeFixture, type Fixture } from './helpers/context.js';

const TS = `export function add(a: number, b: number): number {
  return a + b;
}

export function sub(a: number, b: number): number {
  return a - b;
}
`;

describe('edit_file', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture({
      'src/math.ts': TS,
      'crlf.txt': 'alpha\r\nbeta\r\ngamma\r\ndelta\r\n',
      'tabs.go': 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n',
      'dup.txt': 'x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n',
      'conf.json': '{\n  "a": 1,\n  "b": 2\n}\n',
      'broken.ts': 'export const x = ;\nexport const y = 2;\n',
      'latin1.txt': Buffer.from('caf\xe9 = 1\n', 'latin1'),
      'trailing.py': 'def f():   \n    return 1  \n',
    });
  });
  afterEach(() => fx.cleanup());
  const edit = (path: string, old: string, neu: string) => editFileTool.execute({ path, old, new: neu }, fx.ctx());
  const read = (p: string) => readFileSync(join(fx.root, p), 'utf8');

  it('replaces the one exact occurrence and shows the changed lines with context', async () => {
    const r = await edit('src/math.ts', 'return a - b;', 'return a - b - 0;');
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/^edited src\/math.ts \(exact\): lines 6–6 now:/);
    expect(r.output).toContain('     6 │   return a - b - 0;');
    expect(r.output).toContain('     3 │ }');
    expect(read('src/math.ts')).toBe(TS.replace('return a - b;', 'return a - b - 0;'));
  });

  it('lists the lines of several matches', async () => {
    const r = await edit('dup.txt', 'x = 1', 'x = 2');
    expect(r).toEqual({ ok: false, output: 'old matched 3 times in dup.txt: lines 1, 3, 5 — add context to make it unique' });
    expect(read('dup.txt')).toBe('x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n');
  });

  it('shows the closest chunk when nothing matches', async () => {
    const r = await edit('src/math.ts', 'export function sub(a: number, b: number) {\n  return a - c;\n}', 'nope');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/old not found in src\/math.ts. The most similar lines \(5–7\) are:/);
    expect(r.output).toContain('     5 │ export function sub(a: number, b: number): number {');
    expect(r.output).toContain('     6 │   return a - b;');
  });

  it('says when nothing is similar at all', async () => {
    const r = await edit('src/math.ts', 'zzzz qqqq', 'wwww');
    expect(r.output).toMatch(/nothing similar/);
  });

  it('strips line-number prefixes copied from read_file, in old and new', async () => {
    const r = await edit('src/math.ts', '     5 │ export function sub(a: number, b: number): number {\n     6 │   return a - b;', '     5 │ export function sub(a: number, b: number): number {\n     6 │   return b - a;');
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/line-number prefixes stripped/);
    expect(read('src/math.ts')).toContain('export function sub(a: number, b: number): number {\n  return b - a;\n}');
  });

  it('strips tab and colon forms of line numbers', async () => {
    expect((await edit('dup.txt', '2\ty = 2\n3\tx = 1', '2\ty = 3\n3\tx = 1')).ok).toBe(true);
    expect(read('dup.txt')).toBe('x = 1\ny = 3\nx = 1\nz = 3\nx = 1\n');
    expect((await edit('dup.txt', 'dup.txt:4:z = 3', 'z = 4')).ok).toBe(true);
    expect(read('dup.txt')).toBe('x = 1\ny = 3\nx = 1\nz = 4\nx = 1\n');
  });

  it('edits a CRLF file with LF text, keeping CRLF everywhere', async () => {
    const r = await edit('crlf.txt', 'beta\ngamma', 'BETA\nGAMMA\nextra');
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/line endings normalised/);
    expect(readFileSync(join(fx.root, 'crlf.txt'), 'latin1')).toBe('alpha\r\nBETA\r\nGAMMA\r\nextra\r\ndelta\r\n');
  });

  it('forgives trailing whitespace differences', async () => {
    const r = await edit('trailing.py', 'def f():\n    return 1', 'def f():\n    return 2');
    expect(r.output).toMatch(/trailing whitespace ignored/);
    expect(read('trailing.py')).toBe('def f():\n    return 2\n');
  });

  it('applies a uniform indentation shift to new, and keeps tabs', async () => {
    const r = await edit('tabs.go', 'if x {\n\treturn 1\n}', 'if x {\n\treturn 2\n}\nreturn 3');
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/indentation shifted/);
    expect(read('tabs.go')).toBe('func f() {\n\tif x {\n\t\treturn 2\n\t}\n\treturn 3\n}\n');

    const spaces = await edit('src/math.ts', 'return a + b;', 'const s = a + b;\n  return s;');
    expect(spaces.output).toMatch(/exact/);
    const shifted = await edit('src/math.ts', '    const s = a + b;\n    return s;', '    const s = b + a;\n    return s;');
    expect(shifted.output).toMatch(/indentation shifted/);
    expect(read('src/math.ts')).toContain('  const s = b + a;\n  return s;\n}');
  });

  it('detects an edit that is already applied', async () => {
    await edit('src/math.ts', 'return a - b;', 'return a - b - 0;');
    const again = await edit('src/math.ts', 'return a - b;', 'return a - b - 0;');
    expect(again).toEqual({ ok: false, output: 'already applied: src/math.ts contains new and not old; nothing changed' });
  });

  it('rejects an edit that breaks TypeScript or JSON syntax, leaving the file unchanged', async () => {
    const ts = await edit('src/math.ts', 'return a + b;\n}', 'return a + b;');
    expect(ts.ok).toBe(false);
    expect(ts.output).toMatch(/rejected: this edit would make src\/math.ts unparsable \(line \d+, column \d+: '}' expected/);
    expect(read('src/math.ts')).toBe(TS);

    const json = await edit('conf.json', '"b": 2', '"b": 2,');
    expect(json.output).toMatch(/rejected: this edit would make conf.json unparsable \(line 4, column 1:/);
    expect(read('conf.json')).toBe('{\n  "a": 1,\n  "b": 2\n}\n');
  });

  it('lets an already broken file be edited', async () => {
    const r = await edit('broken.ts', 'export const y = 2;', 'export const y = ;');
    expect(r.ok).toBe(true);
    expect(read('broken.ts')).toBe('export const x = ;\nexport const y = ;\n');
  });

  it('refuses a non-UTF-8 file without touching it', async () => {
    await expect(edit('latin1.txt', 'caf', 'cafe')).rejects.toThrow(/binary file/);
    expect(readFileSync(join(fx.root, 'latin1.txt'))).toEqual(Buffer.from('caf\xe9 = 1\n', 'latin1'));
  });

  it('creates a missing file with old "" (parents too) and refuses it on an existing file', async () => {
    const r = await edit('pkg/deep/new.ts', '', 'export const z = 1;\n');
    expect(r).toEqual({ ok: true, output: 'created pkg/deep/new.ts (1 lines)' });
    expect(read('pkg/deep/new.ts')).toBe('export const z = 1;\n');
    await expect(edit('src/math.ts', '', 'x')).rejects.toThrow(/src\/math.ts exists: old must quote the text/);
    const broken = await edit('pkg/bad.ts', '', 'export const = 1;');
    expect(broken.output).toMatch(/rejected: the new file would make pkg\/bad.ts unparsable/);
  });

  it('preserves the file mode', async () => {
    const script = join(fx.root, 'run.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n');
    chmodSync(script, 0o755);
    expect((await edit('run.sh', 'echo hi', 'echo bye')).ok).toBe(true);
    expect(statSync(script).mode & 0o777).toBe(0o755);
  });

  it('refuses identical old and new', async () => {
    expect((await edit('src/math.ts', 'return a + b;', 'return a + b;')).output).toMatch(/identical/);
  });
});
