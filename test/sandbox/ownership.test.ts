import { chmodSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isReachableBy, SANDBOX_OWNER, sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import { isRoot } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('sandboxFileOwner', () => {
  it('is the sandbox uid for root and nobody (leave files as they are) otherwise', () => {
    expect(sandboxFileOwner(0)).toEqual({ uid: 65534, gid: 65534 });
    expect(sandboxFileOwner(1000)).toBeNull();
  });
});

(isRoot ? describe : describe.skip)('prepareWorkspaceOwnership (needs root to chown)', () => {
  it('hands every entry to the sandbox uid without following symlinks out of the tree', async () => {
    const outside = temp.make('greenfix-outside-');
    writeFileSync(join(outside, 'precious'), 'x');
    const ws = temp.make('greenfix-ws-');
    mkdirSync(join(ws, 'a/b'), { recursive: true });
    writeFileSync(join(ws, 'a/b/file'), 'x');
    writeFileSync(join(ws, '.git'), 'gitdir: /elsewhere\n');
    symlinkSync(outside, join(ws, 'link-dir'));
    symlinkSync(join(outside, 'precious'), join(ws, 'link-file'));

    await prepareWorkspaceOwnership(ws, SANDBOX_OWNER);

    for (const p of ['.', 'a', 'a/b', 'a/b/file', '.git']) expect(statSync(join(ws, p)).uid).toBe(65534);
    expect(lstatSync(join(ws, 'link-dir')).uid).toBe(65534);
    expect(statSync(outside).uid).toBe(0);
    expect(statSync(join(outside, 'precious')).uid).toBe(0);
  });

  it('reaches every entry of a root with more entries than one chown takes, the root included', async () => {
    const ws = temp.make('greenfix-ws-wide-');
    for (let i = 0; i < 1_205; i++) writeFileSync(join(ws, `f${i}`), 'x');
    mkdirSync(join(ws, 'deep/er/still'), { recursive: true });
    writeFileSync(join(ws, 'deep/er/still/file'), 'x');

    await prepareWorkspaceOwnership(ws, SANDBOX_OWNER);

    const owners = new Set(['.', 'f0', 'f999', 'f1000', 'f1204', 'deep', 'deep/er/still', 'deep/er/still/file'].map((p) => lstatSync(join(ws, p)).uid));
    expect([...owners]).toEqual([65534]);
  });

  it('names the tree when it is gone', async () => {
    await expect(prepareWorkspaceOwnership(join(temp.make('greenfix-ws-gone-'), 'nothing'), SANDBOX_OWNER)).rejects.toThrow(/ENOENT.*nothing/);
  });
});

describe('isReachableBy', () => {
  it('needs search permission on every directory on the way', () => {
    const top = temp.make('greenfix-reach-');
    mkdirSync(join(top, 'inner'));
    chmodSync(top, 0o700);
    expect(isReachableBy(join(top, 'inner'), { uid: 65534, gid: 65534 })).toBe(process.getuid?.() === 65534);
    chmodSync(top, 0o711);
    expect(isReachableBy(join(top, 'inner'), { uid: 65534, gid: 65534 })).toBe(true);
  });
});
