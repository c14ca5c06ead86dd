import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileTool } from '../../../src/agent/tools/write-file.js';
import { makeFixture, type Fixture } from './helpers/context.js';

describe('write_file', () => {
  let fx: Fixture;
  beforeEach(async () => (fx = await makeFixture({ 'old.ts': 'export const a = 1;\n' })));
  afterEach(() => fx.cleanup());
  const write = (path: string, content: string, owner: { uid: number; gid: number } | null = null) =>
    writeFileTool.execute({ path, content }, fx.ctx({ fileOwner: owner }));

  it('creates a new file and its parent directories', async () => {
    expect(await write('a/b/c.txt', 'x\ny\n')).toEqual({ ok: true, output: 'created a/b/c.txt (2 lines)' });
    expect(readFileSync(join(fx.root, 'a/b/c.txt'), 'utf8')).toBe('x\ny\n');
  });

  it('refuses an existing file, pointing at edit_file', async () => {
    await expect(write('old.ts', 'export const a = 2;\n')).rejects.toThrow('old.ts exists: use edit_file');
    await expect(write('.', 'x')).rejects.toThrow(/is a directory/);
    expect(readFileSync(join(fx.root, 'old.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('rejects a new file that does not parse', async () => {
    const r = await write('bad.json', '{"a": 1,}');
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/rejected: the new file would make bad.json unparsable \(line 1, column 9:/);
    await expect(write('bad.tsx', 'export const x = <div>;')).resolves.toMatchObject({ ok: false });
    expect(() => statSync(join(fx.root, 'bad.json'))).toThrow();
  });

  it('refuses paths outside the workspace and into .git', async () => {
    await expect(write('../evil.txt', 'x')).rejects.toThrow(/outside the workspace/);
    await expect(write('.git/hooks/pre-commit', 'x')).rejects.toThrow(/git internals/);
  });

  it('chowns created files and directories to the file owner', async () => {
    const owner = { uid: 65534, gid: 65534 };
    const canChown = process.getuid?.() === 0;
    if (!canChown) return; // only root can give files away; covered where tests run as root (CI)
    await write('made/by/model.txt', 'x\n', owner);
    for (const p of ['made', 'made/by', 'made/by/model.txt']) {
      expect(statSync(join(fx.root, p))).toMatchObject({ uid: 65534, gid: 65534 });
    }
    expect(statSync(fx.root).uid).toBe(0);
  });
});
