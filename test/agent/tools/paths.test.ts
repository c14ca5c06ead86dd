import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRefusal } from '../../../src/agent/tools/errors.js';
import { resolveInWorkspace } from '../../../src/agent/tools/paths.js';
import { repoFixture } from './helpers/repo.js';

describe('resolveInWorkspace', () => {
  let repo: ReturnType<typeof repoFixture>;
  beforeEach(() => {
    repo = repoFixture({ 'src/a.ts': 'x\n' });
    mkdirSync(join(repo.tmp, 'outside'));
    symlinkSync('/etc/passwd', join(repo.root, 'passwd-link'));
    symlinkSync(join(repo.tmp, 'outside'), join(repo.root, 'out-dir'));
    symlinkSync('src', join(repo.root, 'src-link'));
    symlinkSync(join(repo.tmp, 'nowhere'), join(repo.root, 'dangling'));
  });
  afterEach(() => repo.cleanup());

  const refusal = (p: string): ToolRefusal => {
    try {
      resolveInWorkspace(repo.root, p);
    } catch (e) {
      if (e instanceof ToolRefusal) return e;
      throw e;
    }
    throw new Error(`${p} was accepted`);
  };

  it('accepts relative, nested, missing and absolute-inside paths', () => {
    expect(resolveInWorkspace(repo.root, 'src/a.ts')).toEqual({ abs: join(repo.root, 'src/a.ts'), rel: 'src/a.ts' });
    expect(resolveInWorkspace(repo.root, 'new/dir/b.ts').rel).toBe('new/dir/b.ts');
    expect(resolveInWorkspace(repo.root, join(repo.root, 'src')).rel).toBe('src');
    expect(resolveInWorkspace(repo.root, '').rel).toBe('.');
    expect(resolveInWorkspace(repo.root, 'src/../README.md').rel).toBe('README.md');
    expect(resolveInWorkspace(repo.root, 'src-link/a.ts').rel).toBe('src-link/a.ts');
  });

  it('refuses escapes with ..', () => {
    expect(refusal('../x').kind).toBe('outside_workspace');
    expect(refusal('src/../../x').message).toMatch(/outside the workspace/);
  });

  it('refuses absolute paths outside the root', () => {
    expect(refusal('/etc/passwd').kind).toBe('outside_workspace');
  });

  it('refuses symlinks that lead out, to files and through directories', () => {
    expect(refusal('passwd-link').message).toMatch(/symlink leads outside/);
    expect(refusal('out-dir/new-file.txt').kind).toBe('outside_workspace');
    expect(refusal('out-dir').kind).toBe('outside_workspace');
    expect(refusal('dangling').kind).toBe('outside_workspace');
  });

  it('refuses git internals', () => {
    expect(refusal('.git/config').kind).toBe('git_internal');
    expect(refusal('.git').kind).toBe('git_internal');
    expect(refusal('sub/.git/hooks/pre-commit').kind).toBe('git_internal');
  });
});
