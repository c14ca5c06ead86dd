import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { git } from '../support/git.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, type Harness } from './harness.js';
import { addCheckRun, FIX_SCRIPT, openPullRequest, recordingModel, remoteSha, shownToModel, startRecorded, statusComments, wireRemote, workflowRunFailed } from './pull-fixtures.js';

/** An Actions job log: setup noise, then the failing step. */
const JOB_LOG = [
  '2026-11-29T10:00:00.0000000Z ##[group]Run actions/checkout@v4',
  '2026-11-29T10:00:01.0000000Z Syncing repository: octo-org/widgets',
  '2026-11-29T10:00:02.0000000Z ##[endgroup]',
  '2026-11-29T10:00:03.0000000Z ##[group]Run bash test.sh',
  '2026-11-29T10:00:04.0000000Z add 2 3 gave -1 (expected 5): FAILED',
  '2026-11-29T10:00:04.1000000Z ##[error]Process completed with exit code 1.',
].join('\n');

describe('red CI on a greenfix pull request', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('pushes a fix to the same branch, with the failing output in the task', async () => {
    const started = await startRecorded(FIX_SCRIPT, 'verify: bash test.sh\n');
    h = started.h;
    const { requests } = started;
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', title: 'Fix #7: add() gives the wrong answer', author: 'greenfix[bot]' });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: JOB_LOG });

    const answer = await h.send('workflow_run', workflowRunFailed(h, pr));
    expect(answer.status).toBe(200);
    await h.settle();

    const head = remoteSha(h, 'refs/heads/greenfix/issue-7');
    expect(head).not.toBe(pr.headSha);
    expect(git(h.remote, 'rev-parse', `${head}^`)).toBe(pr.headSha);
    expect(git(h.remote, 'log', '-1', '--format=%B', head!)).toContain(`Verified-tree: ${h.remoteTree('greenfix/issue-7')}`);
    expect(h.state.pulls).toHaveLength(1);
    expect(h.state.checkRuns).toContainEqual(expect.objectContaining({ name: 'greenfix/verify', head_sha: head, conclusion: 'success' }));

    const shown = shownToModel(requests);
    expect(shown).toContain('add 2 3 gave -1 (expected 5): FAILED');
    expect(shown).toContain('Process completed with exit code 1.');
    expect(shown).toContain(`CI failed on ${pr.headSha.slice(0, 12)}`);
    expect(h.state.requests).toContainEqual(expect.stringMatching(/^GET \/repos\/octo-org\/widgets\/actions\/jobs\/\d+\/logs$/));
    expect(statusComments(h, 12)).toHaveLength(1);
  });

  it('with `verify:` unset, the test command comes from the default branch, not from the package.json the model wrote', async () => {
    // main: a Makefile whose `test` runs the real tests. The greenfix PR's tree (the model's) adds a
    // package.json whose test script always passes: detected there, it would verify anything.
    const { model, requests } = recordingModel(FIX_SCRIPT);
    h = await startHarness({ files: { ...BUGGY_REPO, Makefile: 'test:\n\tbash test.sh\n' }, script: [], model, state: {} });
    wireRemote(h);
    const rigged = JSON.stringify({ name: 'widgets', version: '1.0.0', scripts: { test: 'echo all good' } });
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', author: 'greenfix[bot]', files: { 'package.json': rigged } });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: JOB_LOG });

    await h.send('workflow_run', workflowRunFailed(h, pr));
    await h.settle();

    const head = remoteSha(h, 'refs/heads/greenfix/issue-7');
    expect(head).not.toBe(pr.headSha);
    const message = git(h.remote, 'log', '-1', '--format=%B', head!);
    expect(message).toContain('Verified-by: make test');
    expect(message).not.toContain('npm test');
    expect(shownToModel(requests)).toContain('run_tests runs: make test');
  });

  it('makes one job for the same failure reported twice', async () => {
    const started = await startRecorded(FIX_SCRIPT, 'verify: bash test.sh\n');
    h = started.h;
    const { requests } = started;
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', author: 'greenfix[bot]' });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: JOB_LOG });

    await h.send('workflow_run', workflowRunFailed(h, pr), 'run-1');
    await h.send('workflow_run', workflowRunFailed(h, pr), 'run-1-redelivered');
    await h.settle();

    expect((await h.queue.counts()).succeeded).toBe(1);
    expect(git(h.remote, 'rev-list', '--count', `${pr.headSha}..refs/heads/greenfix/issue-7`)).toBe('1');
    expect(requests.filter((r) => r.turn === 0)).toHaveLength(1);
  });
});
