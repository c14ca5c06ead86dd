import { linkSync, mkdirSync, openSync, closeSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { treeBytes } from '../../src/sandbox/disk-watchdog.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

const MB = 1024 * 1024;

/** What the disk watchdog counts: blocks really used under the worktree, each inode once, nothing outside it. */
describe('treeBytes', () => {
  it('counts allocated blocks: a 1 GB sparse file counts what it uses, a written 4 MB file counts 4 MB', async () => {
    const dir = temp.make('gf-du-');
    const fd = openSync(join(dir, 'sparse'), 'w');
    ftruncateSync(fd, 1024 * MB);
    closeSync(fd);
    writeFileSync(join(dir, 'full'), Buffer.alloc(4 * MB, 1));
    const bytes = await treeBytes(dir);
    expect(bytes).toBeGreaterThanOrEqual(4 * MB);
    expect(bytes).toBeLessThan(5 * MB);
  });

  it('counts a hard-linked file once, and never follows a symlink out of the tree', async () => {
    const dir = temp.make('gf-du-');
    const outside = temp.make('gf-du-outside-');
    writeFileSync(join(outside, 'big'), Buffer.alloc(8 * MB, 1));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'a'), Buffer.alloc(2 * MB, 1));
    linkSync(join(dir, 'sub', 'a'), join(dir, 'b'));
    symlinkSync(outside, join(dir, 'to-outside'));
    symlinkSync(join(outside, 'big'), join(dir, 'to-big'));
    const bytes = await treeBytes(dir);
    expect(bytes).toBeGreaterThanOrEqual(2 * MB);
    expect(bytes).toBeLessThan(3 * MB);
  });

  it('counts a directory that is gone as 0', async () => {
    const dir = temp.make('gf-du-');
    expect(await treeBytes(join(dir, 'never-made'))).toBe(0);
  });
});
