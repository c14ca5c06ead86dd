import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { BUGGY_REPO, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/**
 * A new run of a task deletes the earlier run's worktree while git makes its own, and has the
 * repository forget the old one only once the new one exists (a prune in the middle of
 * `git worktree add` could take the new worktree for a leftover).
 */
describe('greenfix fix, the same task again after a run that kept its worktree', () => {
  let dir: string;
  afterEach(() => cleanup(dir));

  it('the earlier worktree and private index are gone and pruned; the new worktree is the repository\'s, whole', async () => {
    dir = tempDir('greenfix-rerun-');
    const repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    const fix = (): Promise<CliRun> =>
      runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--model', `scripted:${writeScript(dir, [[['finish', { summary: 'not today', gave_up: true }]]])}`], {
        GREENFIX_WORKDIR: join(dir, 'work'),
      });
    const kept = (r: CliRun): string => /worktree kept for inspection: (\S+)/.exec(r.stderr)?.[1] ?? 'none';
    const first = await fix();
    expect(first.code).toBe(1);
    expect(existsSync(kept(first))).toBe(true);
    const second = await fix();
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('an interrupted run of this task stays in');
    expect(existsSync(kept(first))).toBe(false);
    expect(existsSync(join(kept(first), '..', 'index'))).toBe(false);
    const listed = git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).map((l) => realpathSync(l.slice(9)));
    expect(listed).toEqual([realpathSync(repo), realpathSync(kept(second))]);
    expect(git(kept(second), '-c', 'safe.directory=*', 'status', '--porcelain')).toBe('');
    expect(git(kept(second), '-c', 'safe.directory=*', 'show', 'HEAD:lib.sh')).toBe('add() { echo $(( $1 - $2 )); }');
  });
});
