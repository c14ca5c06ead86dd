import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { ScriptTurn } from '../../src/model/scripted-script.js';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

// Each reply: 120,000 prompt tokens (40,000 cached) and 2,000 completion tokens at $2.50 / $1.25 / $10
// per million = $0.20 + $0.05 + $0.02 = $0.27.
const usage = { prompt: 120_000, completion: 2_000, cached: 40_000 };
const withUsage = (t: ScriptTurn): ScriptTurn => ({ ...t, usage });
const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
const SCRIPT = [FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() adds now.' }])].map(withUsage);
const PRICES = { scripted: { input: 2.5, cachedInput: 1.25, output: 10 } };
const MONEY = /\$\d+\.\d\d/;

describe('cost in the GitHub reports', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  const statusOf = () => h.state.comments.filter((c) => c.body.includes('greenfix:status'));

  it('the status comment, the PR body and the check run say the exact cost', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, prices: PRICES, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    expect(h.state.pulls[0]!.body).toContain('The model usage of this fix cost $0.81.');
    expect(h.state.checkRuns[0]!.output.summary).toContain('The model usage of this job cost $0.81.');
    const status = statusOf();
    expect(status).toHaveLength(1);
    expect(status[0]!.body).toContain('tokens · $0.81 · job');
    expect(status[0]!.body).toContain('This fix cost $0.81.');
    const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
    const line = metrics.split('\n').find((l) => l.startsWith('greenfix_cost_usd_total{'));
    expect(line).toMatch(/^greenfix_cost_usd_total\{repo="[^"]+\/[^"]+",kind="issue",outcome="published"\} 0\.81\d*$/);
    // And in the queue's store, with the job's completion.
    expect(await h.queue.spent('1296269', 0)).toBeCloseTo(0.81, 10);
  });

  it('an unpriced model: "cost unknown" in every report and no number', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    const unknown = 'cost unknown (no price for scripted)';
    const pr = h.state.pulls[0]!;
    const check = h.state.checkRuns[0]!.output.summary ?? '';
    const status = statusOf()[0]!.body;
    for (const text of [pr.body, check, status]) {
      expect(text).toContain(unknown);
      expect(text).not.toMatch(MONEY);
    }
    const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(metrics).not.toMatch(/^greenfix_cost_usd_total\{/m);
    expect(metrics).toMatch(/^greenfix_cost_unknown_jobs_total\{repo="[^"]+",kind="issue"\} 1$/m);
    expect(await h.queue.spent('1296269', 0)).toBe(0);
  });

  it('max_cost_usd stops the job before the call that could cross it; the attempt cost is said', async () => {
    // Worst case of a next call: 150,000 uncached prompt tokens ($0.375) + a 4096-token reply ($0.041):
    // after one reply ($0.27) the second fits under $0.70, after two ($0.54) the third might not.
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, prices: PRICES, state: { config: 'verify: bash test.sh\nmax_cost_usd: 0.70\n' } });
    await h.send('issues', labeled(h));
    await h.settle();
    expect(h.state.pulls).toHaveLength(0);
    const status = statusOf()[0]!.body;
    expect(status).toContain('This attempt cost $0.54 and produced no pull request.');
    expect(status).toContain('cost budget reached: $0.54 spent of $0.70');
    const metrics = await (await fetch(`${h.app.url}/metrics`)).text();
    expect(metrics).toMatch(/^greenfix_cost_usd_total\{repo="[^"]+",kind="issue",outcome="not_verified"\} 0\.54\d*$/m);
    expect(await h.queue.spent('1296269', 0)).toBeCloseTo(0.54, 10);
  });
});
