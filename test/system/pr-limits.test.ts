import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { startHarness, turn, waitFor, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';
import { recordingModel, statusComments } from './pull-fixtures.js';

const FIX = turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]);
/** One fix per job: the second job (issue 8) takes the second half when it runs. */
const SCRIPT = [FIX, turn(['run_tests', {}]), turn(['finish', { summary: 'add() subtracted; it adds now.' }])];
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** `issues.labeled` on issue `number`; `updatedAt` tells a later labelling from a replay of this one. */
function labeledIssue(h: Harness, number: number, updatedAt?: string): Record<string, unknown> {
  const payload = labeled(h);
  return { ...payload, issue: { ...(payload.issue as object), number, title: `add() is wrong (${number})`, ...(updatedAt ? { updated_at: updatedAt } : {}) } };
}

describe('PR rate limits (limits in .github/greenfix.yml)', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  /** The harness on an injected clock shared by the queue (SQLite, or BullMQ on a real redis-server) and the jobs. */
  async function start(limits: string, kind: 'sqlite' | 'redis' = 'sqlite') {
    let now = Date.parse('2026-12-01T14:00:00Z');
    const clock = () => now;
    const { model, requests } = recordingModel([...SCRIPT, ...SCRIPT]);
    h = await startHarness({ store: kind, files: BUGGY_REPO, script: [], model, now: clock, state: { config: `verify: bash test.sh\nlimits:\n${limits}` } });
    return {
      requests,
      advance: (ms: number) => {
        now += ms;
        h.app.pool!.wake();
      },
    };
  }

  it.each(['sqlite', 'redis'] as const)('%s: prs_per_hour: 1 → two labelled issues make one PR; the second job says it waits, and opens its PR an hour later', async (kind) => {
    const { requests, advance } = await start('  prs_per_hour: 1\n', kind);
    await h.send('issues', labeledIssue(h, 7));
    await h.send('issues', labeledIssue(h, 8));
    await h.settle();
    expect(h.state.pulls.map((p) => p.head)).toEqual(['greenfix/issue-7']);
    // The second job made no model call: it stopped before its workspace.
    expect(requests).toHaveLength(3);
    const [waiting] = statusComments(h, 8);
    expect(statusComments(h, 8)).toHaveLength(1);
    expect(waiting).toContain(
      'Queued — waiting: the limit of 1 new pull request per hour (`limits.prs_per_hour`) is reached (it checks again at 2026-12-01 15:00 UTC): greenfix opened 1 in the last hour',
    );
    const [job] = await h.queue.listBySubject('1296269#8');
    expect(job).toMatchObject({ state: 'queued', attempts: 0, runAfter: Date.parse('2026-12-01T15:00:00Z') });

    // A minute short of the hour, nothing is claimed.
    advance(HOUR - MINUTE);
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    expect(requests).toHaveLength(3);

    advance(MINUTE);
    await h.settle();
    expect(h.state.pulls.map((p) => p.head)).toEqual(['greenfix/issue-7', 'greenfix/issue-8']);
    expect(requests).toHaveLength(6);
    // Still one status comment on issue 8, edited in place: it now names its PR.
    const after = statusComments(h, 8);
    expect(after).toHaveLength(1);
    expect(after[0]).toContain(`#${h.state.pulls[1]!.number}`);
    expect(after[0]).not.toContain('waiting:');
    expect(await h.queue.pullRequestsOpenedSince('1296269', 0)).toHaveLength(2);
  }, 120_000);

  it('open_prs: 1 → the second job checks again every 15 minutes and runs once the open PR is closed', async () => {
    const { requests, advance } = await start('  open_prs: 1\n');
    await h.send('issues', labeledIssue(h, 7));
    await h.send('issues', labeledIssue(h, 8));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    expect(statusComments(h, 8)[0]).toContain(
      'Queued — waiting: the limit of 1 open greenfix pull request (`limits.open_prs`) is reached (it checks again at 2026-12-01 14:15 UTC, then every 15 minutes): 1 is open',
    );
    // Still open at the next check: it waits again, with the next time.
    advance(15 * MINUTE);
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);
    expect(statusComments(h, 8)).toHaveLength(1);
    expect(statusComments(h, 8)[0]).toContain('(it checks again at 2026-12-01 14:30 UTC, then every 15 minutes)');
    // A maintainer closes (or merges) the PR: at the next check the job runs.
    h.state.pulls[0]!.state = 'closed';
    advance(15 * MINUTE);
    await h.settle();
    expect(h.state.pulls.map((p) => [p.head, p.state])).toEqual([['greenfix/issue-7', 'closed'], ['greenfix/issue-8', 'open']]);
    expect(requests).toHaveLength(6);
  });

  it('a waiting job that is cancelled (label removed) or superseded (labelled again) leaves no comment saying it still waits', async () => {
    await start('  prs_per_hour: 1\n');
    await h.send('issues', labeledIssue(h, 7));
    await h.send('issues', labeledIssue(h, 9));
    await h.settle();
    expect(statusComments(h, 9)[0]).toContain('Queued — waiting:');
    // Labelled again while it waits: the new job waits too, in a comment of its own; the old one is closed.
    await h.send('issues', labeledIssue(h, 9, '2026-12-01T14:05:00Z'));
    await h.settle();
    // Edited after the webhook's answer, like the 👀 reaction.
    await waitFor(() => statusComments(h, 9).length === 2 && !statusComments(h, 9)[0]!.includes('waiting:'), 'the replaced job’s comment to be closed');
    const [old, current] = statusComments(h, 9);
    expect(statusComments(h, 9)).toHaveLength(2);
    expect(old).not.toContain('waiting:');
    expect(old).toContain('Cancelled');
    expect(old).toContain('A newer request for #9 replaced it.');
    expect(current).toContain('Queued — waiting:');
    // The label removed: the waiting job ends, and its comment says so.
    await h.send('issues', { ...labeledIssue(h, 9), action: 'unlabeled' });
    await waitFor(() => !statusComments(h, 9)[1]!.includes('waiting:'), 'the cancelled job’s comment to be closed');
    expect(statusComments(h, 9)).toHaveLength(2);
    expect(statusComments(h, 9)[1]).not.toContain('waiting:');
    expect(statusComments(h, 9)[1]).toContain('The `agent-fix` label was removed.');
    const jobs = await h.queue.listBySubject('1296269#9');
    expect(jobs.map((j) => j.state)).toEqual(['cancelled', 'cancelled']);
  });
});
