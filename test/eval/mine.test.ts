import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { historyRepo, TEST_COMMAND } from './history-repo.js';

/** `greenfix eval mine` through the built CLI, on a history built here with real git, in the real sandbox. */
describe('greenfix eval mine', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('greenfix-eval-mine-');
  });
  afterAll(() => cleanup(dir));

  it('of three past fixes (deterministic, flaky, untested) yields exactly the deterministic one; the others are dropped with their reasons', async () => {
    const h = historyRepo(join(dir, 'repo'));
    mkdirSync(join(dir, 'issues'));
    writeFileSync(join(dir, 'issues', '7.json'), JSON.stringify({ title: 'sub(5, 3) is 8', body: 'It should be 2.' }));
    const out = join(dir, 'instances.jsonl');
    const r = await runCli(['eval', 'mine', '--repo', h.repo, '--test-command', TEST_COMMAND, '--out', out, '--issues', join(dir, 'issues')], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.stderr).not.toMatch(/greenfix: failed/);
    expect(r.code).toBe(0);
    const instances = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(instances).toHaveLength(1);
    const [instance] = instances;
    expect(instance).toMatchObject({
      instance_id: `repo-${h.deterministic.slice(0, 12)}`,
      base_commit: h.init,
      FAIL_TO_PASS: ['sub subtracts'],
      PASS_TO_PASS: ['add adds'],
      // The commit names issue #7, whose local copy is the task; the commit message is not shown.
      problem_statement: 'sub(5, 3) is 8\n\nIt should be 2.',
    });
    // The test change and the gold change, split by path: the model gets the first, never the second.
    expect(instance?.test_patch).toMatch(/^diff --git a\/test\/sub\.test\.js/);
    expect(instance?.test_patch).not.toContain('a - b');
    expect(instance?.patch).toMatch(/^diff --git a\/lib\.js/);
    expect(instance?.patch).toContain('+exports.sub = (a, b) => a - b;');
    expect(r.stderr).toContain(`${h.flaky.slice(0, 12)} dropped: not deterministic on the commit: mul multiplies (passed, then failed)`);
    expect(r.stderr).toContain(`${h.untested.slice(0, 12)} dropped: no test change`);
    expect(r.stdout).toMatch(/^1 instances from 4 commits/);
    // Mining leaves the repository as it was: no worktree, no ref, the same branches.
    expect(git(h.repo, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(h.repo, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
    expect(git(h.repo, 'status', '--porcelain')).toBe('');
  });
});

