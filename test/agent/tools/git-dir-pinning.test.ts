import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFilesTool } from '../../../src/agent/tools/list-files.js';
import { createSearchTool } from '../../../src/agent/tools/search.js';
import { createUnsandboxed } from '../../../src/sandbox/unsandboxed.js';
import type { ToolContext } from '../../../src/agent/tools/types.js';
import { GitWorkspace } from '../../../src/workspace/git-workspace.js';
import { LIMITS } from './helpers/context.js';
import { repoFixture } from './helpers/repo.js';
import { git } from '../../support/git.js';
import { writeFiles } from '../../support/make-repo.js';

/**
 * Sandboxed code owns the worktree, so it can rewrite the worktree's `.git` file to point at a git
 * dir it controls. The read-only tools run git outside the sandbox: they must keep using the git
 * dir resolved when the workspace was opened.
 */
describe('list_files and search (git) ignore a rewritten .git file', () => {
  let repo: ReturnType<typeof repoFixture>;
  let ctx: ToolContext;
  let marker: string;
  let worktree: string;

  beforeEach(async () => {
    repo = repoFixture({ '.gitignore': 'build/\n', 'src/a.ts': 'export const needle = 1;\n' });
    worktree = join(repo.tmp, 'wt');
    git(repo.root, 'worktree', 'add', '-q', '--detach', worktree, 'HEAD');
    const workspace = await GitWorkspace.open({ root: worktree, baseCommit: 'HEAD', stateDir: join(repo.tmp, 'state') });
    ctx = { workspace, sandbox: createUnsandboxed(), verifyCommand: null, verified: null, fileOwner: null, limits: LIMITS };

    // The attacker's git dir: a command for fsmonitor and every hook, a work tree elsewhere, and
    // excludes that would hide a file from the agent.
    marker = join(repo.tmp, 'pwned');
    const script = join(repo.tmp, 'evil.sh');
    writeFileSync(script, `#!/bin/sh\necho ran >> '${marker}'\n`);
    chmodSync(script, 0o755);
    const hooks = join(repo.tmp, 'hooks');
    mkdirSync(hooks);
    for (const hook of ['post-index-change', 'pre-commit', 'post-checkout', 'reference-transaction']) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\nexec '${script}'\n`);
      chmodSync(join(hooks, hook), 0o755);
    }
    const secret = join(repo.tmp, 'secret');
    writeFiles(secret, { 'README.md': 'needle secret\n' });
    const evil = join(repo.tmp, 'evil');
    git(repo.tmp, 'init', '-q', evil);
    const evilGitDir = join(evil, '.git');
    git(evil, 'config', 'core.fsmonitor', script);
    git(evil, 'config', 'core.hooksPath', hooks);
    git(evil, 'config', 'core.worktree', secret);
    writeFileSync(join(evilGitDir, 'info', 'exclude'), 'src/new.ts\n');
    writeFileSync(join(worktree, '.git'), `gitdir: ${evilGitDir}\n`);
    writeFiles(worktree, { 'src/new.ts': 'needle again\n', 'build/out.js': 'needle built\n' });
  });
  afterEach(() => repo.cleanup());

  it('list_files lists from the real git dir and runs nothing from the planted one', async () => {
    const r = await listFilesTool.execute({}, ctx);
    expect(r.ok).toBe(true);
    expect(r.output).toBe(['./ (4 files)', 'src/', '  a.ts', '  new.ts', '.gitignore', 'README.md'].join('\n'));
    expect(existsSync(marker)).toBe(false);
  });

  it('search (git grep) searches the worktree, not the planted work tree, and runs nothing', async () => {
    const r = await createSearchTool('git').execute({ pattern: 'needle' }, ctx);
    expect(r.ok).toBe(true);
    expect(r.output.split('\n').sort()).toEqual(['src/a.ts:1:export const needle = 1;', 'src/new.ts:1:needle again']);
    expect(existsSync(marker)).toBe(false);
  });
});
