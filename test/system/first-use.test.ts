import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { git } from '../support/git.js';
import { NODE_FIX, NODE_REPO, NODE_REPO_WITH_LOG } from '../support/node-repo.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { addCheckRun, openPullRequest, pullRequestComment, recordingModel, remoteSha, shownToModel, statusComments, wireRemote, workflowRunFailed } from './pull-fixtures.js';

/**
 * First use: a plain Node repository with no `.github/greenfix.yml` and default settings. Setup
 * (`npm ci`) and verify (`npm test`) are detected; the tests check that setup ran first.
 */
const SCRIPT = [turn(NODE_FIX), turn(['run_tests', {}]), turn(['finish', { summary: 'sum() subtracted; it adds now.' }])];

async function start(files = NODE_REPO, script = SCRIPT): Promise<{ h: Harness; shown: () => string; last: () => string }> {
  const { model, requests } = recordingModel(script);
  const h = await startHarness({ files, script: [], model });
  expect(h.state.config).toBeNull();
  wireRemote(h);
  return { h, shown: () => shownToModel(requests), last: () => shownToModel(requests.slice(-1)) };
}

/** The status comment says setup ran the detected command and the check run passed on the commit. */
function expectDetectedAndVerified(h: Harness, number: number, head: string): void {
  const [status] = statusComments(h, number);
  expect(status).toContain('npm ci');
  expect(status).not.toContain('no setup command');
  expect(h.state.checkRuns).toContainEqual(expect.objectContaining({ name: 'greenfix/verify', head_sha: head, conclusion: 'success' }));
  expect(git(h.remote, 'log', '-1', '--format=%B', head)).toContain('Verified-by: npm test');
  // What setup wrote (its marker file) stays out of the commit.
  expect(git(h.remote, 'ls-tree', '-r', '--name-only', head).split('\n')).not.toContain('setup-ran.txt');
}

describe('first use: no repository config', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('label on a repository with no test command: stopped before the model, with how to give one', async () => {
    const { h: started, shown } = await start({ 'README.md': '# notes\n', 'notes.txt': 'no tests here\n' }, [turn(['finish', { summary: 'x', gave_up: true }])]);
    h = started;
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();
    expect(shown()).toBe('');
    const status = statusComments(h, 7).join('\n');
    expect(status).toMatch(/Stopped before asking the model: no test command: greenfix found none to run/);
    expect(status).toMatch(/Add a `verify:` line with your test command to `\.github\/greenfix\.yml`, then `\/agent retry`/);
    expect(h.state.pulls).toHaveLength(0);
  });

  it('label → detected setup and tests → a verified PR', async () => {
    const started = await start();
    h = started.h;
    const t0 = Date.now();
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();
    const labelToPrMs = Date.now() - t0;

    expect(h.state.pulls).toHaveLength(1);
    const head = remoteSha(h, 'refs/heads/greenfix/issue-7')!;
    expect(git(h.remote, 'show', `${head}:sum.js`)).toBe('exports.sum = (a, b) => a + b;');
    expect(git(h.remote, 'rev-parse', `${head}^`)).toBe(remoteSha(h, 'refs/heads/main'));
    expectDetectedAndVerified(h, 7, head);
    expect(h.state.pulls[0]!.body).toContain('npm test');
    // The model was told the detected test command.
    expect(started.shown()).toContain('npm test');
    process.stdout.write(`first use, label → PR: ${labelToPrMs} ms (3 model steps)\n`);
  });

  it('/agent retry on a greenfix PR → a new verified commit on its branch', async () => {
    h = (await start()).h;
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', title: 'Fix #7: sum is wrong', author: 'greenfix[bot]' });
    expect((await h.send('issue_comment', pullRequestComment(h, 12, '/agent retry'))).status).toBe(200);
    await h.settle();

    const head = remoteSha(h, 'refs/heads/greenfix/issue-7')!;
    expect(head).not.toBe(pr.headSha);
    expect(git(h.remote, 'rev-parse', `${head}^`)).toBe(pr.headSha);
    expectDetectedAndVerified(h, 12, head);
  });

  it('red CI on a greenfix PR → a verified fix pushed to the same branch', async () => {
    const started = await start();
    h = started.h;
    const pr = openPullRequest(h, { number: 12, head: 'greenfix/issue-7', title: 'Fix #7: sum is wrong', author: 'greenfix[bot]' });
    addCheckRun(h, { headSha: pr.headSha, name: 'test', conclusion: 'failure', log: '##[group]Run npm test\nnot ok 1 - sum adds\n##[error]Process completed with exit code 1.' });
    expect((await h.send('workflow_run', workflowRunFailed(h, pr))).status).toBe(200);
    await h.settle();

    const head = remoteSha(h, 'refs/heads/greenfix/issue-7')!;
    expect(head).not.toBe(pr.headSha);
    expect(git(h.remote, 'rev-parse', `${head}^`)).toBe(pr.headSha);
    expectDetectedAndVerified(h, 12, head);
    expect(started.shown()).toContain('not ok 1 - sum adds');
  });

  it('tests that append to a log on every run: run before and after the fix → verified PR without the log', async () => {
    const script = [turn(['run_tests', {}]), turn(NODE_FIX), turn(['run_tests', {}]), turn(['finish', { summary: 'sum() adds now.' }])];
    const started = await start(NODE_REPO_WITH_LOG, script);
    h = started.h;
    expect((await h.send('issues', labeled(h))).status).toBe(200);
    await h.settle();

    expect(h.state.pulls).toHaveLength(1);
    const head = remoteSha(h, 'refs/heads/greenfix/issue-7')!;
    expectDetectedAndVerified(h, 7, head);
    const files = git(h.remote, 'ls-tree', '-r', '--name-only', head).split('\n');
    expect(files).not.toContain('test-run.log');
    expect(git(h.remote, 'diff', '--name-only', `${head}^`, head)).toBe('sum.js');
    // The whole conversation, as the model saw it in its last request: told once, never voided.
    const conversation = started.last();
    expect(conversation).toContain('[the tests wrote test-run.log: test artefacts');
    expect(conversation.split('[the tests wrote').length).toBe(2);
    expect(conversation).toContain('tests failed');
    expect(conversation).not.toContain('changed source files');
  });
});
