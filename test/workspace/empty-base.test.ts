import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasCommits, parentOfBase, writeEmptyBase } from '../../src/workspace/empty-base.js';
import { git } from '../support/git.js';


describe('the empty base of a repository without commits', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenfix-empty-base-'));
    git(dir, 'init', '-q', '-b', 'main');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is one fixed, parentless commit of the empty tree; a fix on it gets no parent', async () => {
    expect(await hasCommits(dir)).toBe(false);
    const base = await writeEmptyBase(dir);
    expect(await writeEmptyBase(dir)).toBe(base);
    expect(git(dir, 'rev-parse', `${base}^{tree}`)).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    expect(git(dir, 'rev-list', '--parents', '-n', '1', base)).toBe(base);
    expect(parentOfBase(base)).toBeNull();
    // Same object in another repository: a resumed run or a second checkout names the same base.
    const other = join(dir, 'other');
    git(other, 'init', '-q');
    expect(await writeEmptyBase(other)).toBe(base);
    // Writing it made no ref: HEAD stays unborn.
    expect(await hasCommits(dir)).toBe(false);
  });

  it('is named the same in a sha256 repository as git names it, and has no parent there either', async () => {
    const other = join(dir, 'sha256');
    git(other, 'init', '-q', '--object-format=sha256');
    const base = await writeEmptyBase(other);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(parentOfBase(base)).toBeNull();
    expect(parentOfBase(await writeEmptyBase(dir))).toBeNull();
  });

  it("a repository's own empty first commit is a real base and stays the parent", async () => {
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'root');
    const head = git(dir, 'rev-parse', 'HEAD');
    expect(await hasCommits(dir)).toBe(true);
    expect(parentOfBase(head)).toBe(head);
  });
});
