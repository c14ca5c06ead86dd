import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { copyConfigTree } from '../../src/sandbox/copy-config-tree.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

function sourceTree(): string {
  const src = join(temp.make('greenfix-tree-src-'), 'java');
  mkdirSync(join(src, 'security'), { recursive: true });
  writeFileSync(join(src, 'net.properties'), 'a=1\n', { mode: 0o644 });
  writeFileSync(join(src, 'security', 'private.policy'), 'secret\n', { mode: 0o600 });
  chmodSync(join(src, 'security', 'private.policy'), 0o4600);
  symlinkSync('/usr/lib/jvm/java/bin/java', join(src, 'java'));
  symlinkSync('../net.properties', join(src, 'security', 'up'));
  chmodSync(join(src, 'security'), 0o750);
  return src;
}

describe('copyConfigTree', () => {
  it('copies files with their permission bits but no set-id bit, and symlinks as the same links, unfollowed', () => {
    const src = sourceTree();
    const target = join(temp.make('greenfix-tree-dst-'), 'java');
    expect(copyConfigTree(src, target)).toBe(true);
    expect(readFileSync(join(target, 'net.properties'), 'utf8')).toBe('a=1\n');
    expect(statSync(join(target, 'security', 'private.policy')).mode & 0o7777).toBe(0o600);
    expect(statSync(join(target, 'security')).mode & 0o777).toBe(0o750);
    expect(lstatSync(join(target, 'java')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(target, 'java'))).toBe('/usr/lib/jvm/java/bin/java');
    expect(readlinkSync(join(target, 'security', 'up'))).toBe('../net.properties');
  });

  it('refuses, leaving nothing, a tree with a special file or one larger than its budget', () => {
    const src = sourceTree();
    execFileSync('mkfifo', [join(src, 'security', 'pipe')]);
    const target = join(temp.make('greenfix-tree-dst-'), 'java');
    expect(copyConfigTree(src, target)).toBe(false);
    expect(existsSync(target)).toBe(false);
    const small = sourceTree();
    expect(copyConfigTree(small, target, { entries: 3, bytes: 1024 })).toBe(false);
    expect(existsSync(target)).toBe(false);
    expect(copyConfigTree(small, target, { entries: 100, bytes: 5 })).toBe(false);
    expect(existsSync(target)).toBe(false);
    expect(copyConfigTree(small, target, { entries: 100, bytes: 1024 })).toBe(true);
  });
});
