import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { recordingModel, shownToModel, statusComments } from './pull-fixtures.js';

/**
 * Issue 9 (1) through the real app: the repository's setup command rewrites the worktree's `.git`
 * to point at the app's own directory (its `.env` with the private key, the SQLite file) and the
 * test command and the model's `run` then try to read it and another job's worktree. Nothing of
 * it may reach the model, the PR, the check run, the status comment or the commit.
 */
const KEY = 'PRIVATE_KEY=-----BEGIN RSA PRIVATE KEY-----app-attack-9e';
const OTHER = 'other-tenant-code-9e';

describe('a job whose commands rewrite .git', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('mounts stay the host’s: the secret reaches nothing, the PR is verified, the worktree is cleaned up', async () => {
    const appDir = '__APP__';
    const rewrite = `rm -f .git; mkdir -p .x; echo 'gitdir: .x' > .git; echo ${appDir} > .x/commondir; echo 'ref: refs/heads/main' > .x/HEAD`;
    const steal = `cat ${appDir}/.env; ls ${appDir}/work/jobs; cat ${appDir}/work/jobs/other/worktree/secret.txt; git status --short`;
    const script = [
      turn(['run', { command: `${steal}; echo 'gitdir: ${appDir}' > .git; ${steal}` }]),
      turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
      turn(['run_tests', {}]),
      turn(['finish', { summary: 'add() adds now.' }]),
    ];
    // The script names the app's directory, known only once the harness made it.
    const recorded = { model: null as unknown as ReturnType<typeof recordingModel> };
    const lazy = {
      name: 'scripted',
      complete: (request: Parameters<ReturnType<typeof recordingModel>['model']['complete']>[0]) => recorded.model.model.complete(request),
    };
    h = await startHarness({ files: BUGGY_REPO, script: [], model: lazy, state: { config: '' } });
    const dir = h.dir;
    const fill = (s: string) => s.split(appDir).join(dir);
    recorded.model = recordingModel(script.map((t) => ({ tool_calls: (t.tool_calls ?? []).map((c) => ({ ...c, arguments: JSON.parse(fill(JSON.stringify(c.arguments))) as Record<string, unknown> })) })));
    h.state.config = `setup: ${JSON.stringify(fill(`${rewrite}; ${steal}`))}\nverify: ${JSON.stringify(fill(`${steal}; bash test.sh`))}\n`;
    writeFileSync(join(dir, '.env'), `${KEY}\n`, { mode: 0o644 });
    mkdirSync(join(dir, 'work', 'jobs', 'other', 'worktree'), { recursive: true });
    writeFileSync(join(dir, 'work', 'jobs', 'other', 'worktree', 'secret.txt'), `${OTHER}\n`, { mode: 0o644 });

    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();

    expect(h.state.pulls).toHaveLength(1);
    const seen = [
      shownToModel(recorded.model.requests),
      h.state.pulls[0]!.body,
      ...h.state.checkRuns.map((c) => JSON.stringify(c)),
      ...statusComments(h, 7),
      git(h.remote, 'log', '-p', 'greenfix/issue-7'),
    ];
    for (const text of seen) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(OTHER);
    }
    // The commands did run (setup as configured) and were refused by the missing mounts, not skipped.
    expect(statusComments(h, 7).join('\n')).toContain('mkdir -p .x');
    expect(h.state.checkRuns.map((c) => JSON.stringify(c)).join('\n')).toMatch(/No such file or directory/);
    expect(shownToModel(recorded.model.requests)).toMatch(/No such file or directory/);
    expect(git(h.remote, 'ls-tree', '-r', '--name-only', 'greenfix/issue-7')).toBe('lib.sh\ntest.sh');
    expect(h.state.checkRuns).toContainEqual(expect.objectContaining({ name: 'greenfix/verify', conclusion: 'success' }));
    // The job's worktree is gone although its .git was rewritten; only the planted one remains.
    const jobs = readdirSync(join(dir, 'work', 'jobs')).filter((j) => j !== 'other');
    for (const job of jobs) expect(existsSync(join(dir, 'work', 'jobs', job, 'worktree'))).toBe(false);
  }, 120_000);
});
