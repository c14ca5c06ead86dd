import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
const CONFIG = 'verify: bash test.sh\n';

/** Through the app: the run log reaches GitHub in the `greenfix/verify` check run, PR or not. */
describe('the run log on GitHub', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  const statusBody = () => h.state.comments.filter((c) => c.body.includes('greenfix:status')).map((c) => c.body);
  const checkUrl = (id: number) => `https://github.com/${h.state.owner}/${h.state.repo}/runs/${id}`;

  it('a published PR: its check run holds the log, and the status comment links to it', async () => {
    const script = [turn(['read_file', { path: 'lib.sh' }]), turn(['run_tests', {}]), FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() adds now.' }])];
    h = await startHarness({ files: BUGGY_REPO, script, state: { config: CONFIG } });
    await h.send('issues', labeled(h));
    await h.settle();
    const commit = git(h.remote, 'rev-parse', 'refs/heads/greenfix/issue-7');
    const tree = h.remoteTree('greenfix/issue-7');
    expect(h.state.checkRuns).toHaveLength(1);
    const run = h.state.checkRuns[0]!;
    expect(run).toMatchObject({ head_sha: commit, conclusion: 'success' });
    const text = run.output.text ?? '';
    expect(text).toContain('### What greenfix did');
    expect(text).toContain('| 1 | read_file | `lib.sh` | ✓ ok |');
    expect(text).toContain('| 2 | run_tests |  | ✗ exit 1 |');
    expect(text).toContain(`| 4 | 0 |`);
    expect(text).toContain(`\`${tree!}\``);
    expect(text).toContain('```diff\n--- lib.sh\n+++ lib.sh\n-$1 - $2\n+$1 + $2\n```');
    expect(text).toMatch(/#### Diff stat\n\n```+text\n lib\.sh \| 2 \+-\n 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)/);
    expect(text).toContain('The agent finished on a verified tree.');
    expect(text.length).toBeLessThanOrEqual(65_000);
    const [status] = statusBody();
    expect(status).toContain(`[What greenfix did →](${checkUrl(run.id)})`);
  });

  it('a job without a PR: a neutral check run on the base commit holds the log, linked from the status comment', async () => {
    const script = [FIX, turn(['finish', { summary: 'trust me' }]), turn(['finish', { summary: 'cannot make @octocat tests pass', gave_up: true }])];
    h = await startHarness({ files: BUGGY_REPO, script, state: { config: CONFIG } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(0);
    const base = git(h.remote, 'rev-parse', 'refs/heads/main');
    expect(h.state.checkRuns).toHaveLength(1);
    const run = h.state.checkRuns[0]!;
    expect(run).toMatchObject({ name: 'greenfix/verify', head_sha: base, status: 'completed', conclusion: 'neutral' });
    expect(run.output.title).toBe('No verified fix: nothing was published');
    const text = run.output.text ?? '';
    expect(text).toContain('| 2 | finish | `trust me` | ✗ refused |');
    expect(text).toContain('The agent gave up.');
    expect(text).toContain('No tree was verified.');
    // The model's words stay inside code: no live mention.
    expect(text.replace(/```+text\n[\s\S]*?\n```+|`[^`\n]*`/g, '')).not.toContain('@octocat');
    const [status] = statusBody();
    expect(status).toContain(`[What greenfix did →](${checkUrl(run.id)})`);
  });
});
