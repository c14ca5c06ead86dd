import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, writeScript } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { historyRepo, subInstance, TEST_COMMAND } from './history-repo.js';

type Result = { status: string; agentStatus: string | null; gate: string | null; check: { passed: boolean; reason: string; failToPass: string[] } | null; requests: number; diff: string };

/** `greenfix eval run` through the built CLI: each instance through the fix a user gets, then its own check. */
describe('greenfix eval run', () => {
  let dir: string;
  let repo: string;
  let instances: string;
  const evalRun = async (model: string, out: string) => {
    const r = await runCli(['eval', 'run', '--instances', instances, '--repo', repo, '--model', model, '--out', join(dir, out), '--test-command', TEST_COMMAND], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.stderr).not.toMatch(/greenfix: failed/);
    expect(r.code).toBe(0);
    const results = readFileSync(join(dir, out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Result);
    return { r, results };
  };

  beforeAll(() => {
    dir = tempDir('greenfix-eval-run-');
    const h = historyRepo(join(dir, 'repo'));
    repo = h.repo;
    instances = join(dir, 'instances.json');
    writeFileSync(instances, JSON.stringify([subInstance(repo, h.deterministic)]));
  });
  afterAll(() => cleanup(dir));

  it('the gold control resolves 100 %: its verified tree passes FAIL_TO_PASS and PASS_TO_PASS', async () => {
    const { r, results } = await evalRun('gold', 'gold');
    expect(r.stdout).toMatch(/^gold: 1 of 1 resolved \(100\.0 %\), 0 verified but wrong/);
    expect(results).toMatchObject([{ status: 'resolved', agentStatus: 'verified', gate: null, check: { passed: true, reason: 'all 1 FAIL_TO_PASS and 1 PASS_TO_PASS tests pass' } }]);
    expect(results[0]?.diff).toContain('+exports.sub = (a, b) => a - b;');
    // The fix published on its own branch, on top of the base with the tests applied.
    expect(git(repo, 'show', 'greenfix-eval/sub:lib.js')).toContain('exports.sub = (a, b) => a - b;');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(dir, 'gold', 'report.md'), 'utf8')).toContain('| resolved | `1 (100.0 %)` |');
  });

  it('a model that gives up resolves 0 %, and the gold change is nowhere it could see', async () => {
    const { r, results } = await evalRun(`scripted:${writeScript(dir, [])}`, 'give-up');
    expect(r.stdout).toMatch(/: 0 of 1 resolved \(0\.0 %\), 0 verified but wrong, 1 not verified/);
    expect(results).toMatchObject([{ status: 'not_verified', agentStatus: 'gave_up', requests: 1, check: { passed: false, failToPass: ['sub subtracts'] } }]);
    const journal = readFileSync(join(dir, 'give-up', 'instances', 'sub', 'journal.jsonl'), 'utf8');
    expect(journal).toContain('sub subtracts instead of adding');
    expect(journal).not.toContain('a - b');
    expect(readFileSync(join(dir, 'give-up', 'report.md'), 'utf8')).toContain('gave_up 1');
  });

  it('a model that deletes the failing test is not resolved: the gate and the instance check both say why', async () => {
    const script = writeScript(dir, [[['run', { command: 'rm test/sub.test.js' }]], [['run_tests', {}]], [['finish', { summary: 'no failing test left' }]]]);
    const { results } = await evalRun(`scripted:${script}`, 'delete');
    const [result] = results;
    expect(result?.status).toBe('not_verified');
    expect(result?.gate).toMatch(/last test run:[\s\S]*sub subtracts/);
    expect(result?.gate).toMatch(/removed|do not run here/);
    expect(result?.check).toMatchObject({ passed: false, failToPass: ['sub subtracts'] });
    expect(result?.check?.reason).toBe('FAIL_TO_PASS not passing: sub subtracts (did not run)');
    expect(result?.diff).toContain('deleted file mode');
    // Each recorded instance's worktree is gone; its journal and state stay for `greenfix log`.
    expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  });
});
