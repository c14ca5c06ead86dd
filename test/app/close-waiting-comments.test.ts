import { closeWaitingComments } from '../../src/app/close-waiting-comments.js';
import type { GitHost } from '../../src/github/types.js';
import type { Job } from '../../src/queue/types.js';
import { jobRequest } from '../queue/job-requests.js';

const job = (over: Partial<Job>): Job => ({
  id: 'j1', deliveryId: 'd1', dedupeKey: null, subject: '1#9', repoKey: '1', request: jobRequest(1, 9), state: 'cancelled', attempts: 0, maxAttempts: 3,
  runAfter: 0, createdAt: 0, updatedAt: 0, cancelReason: 'x', error: null, result: null, authorize: null, ...over,
});

describe('closeWaitingComments', () => {
  it('edits the status comment of a cancelled job that had run (waiting, or in backoff), and touches no other job', async () => {
    const edits: Array<[number, string, string]> = [];
    const host = { editMarkedComment: async (issue: number, marker: string, body: string) => (edits.push([issue, marker, body]), true) } as unknown as GitHost;
    await closeWaitingComments(host, [
      job({ id: 'waited', error: 'the repository’s daily cap…' }),
      job({ id: 'backoff', attempts: 1, error: 'transient' }),
      job({ id: 'never-claimed' }),
      job({ id: 'still-running', state: 'running', attempts: 1 }),
    ], 'The issue was closed.');
    expect(edits.map(([issue, marker]) => [issue, marker])).toEqual([
      [9, '<!-- greenfix:status job=waited -->'],
      [9, '<!-- greenfix:status job=backoff -->'],
    ]);
    for (const [, marker, body] of edits) {
      expect(body.startsWith(marker)).toBe(true);
      expect(body).toContain('### 🛑 Cancelled');
      expect(body).toContain('The issue was closed.');
    }
  });
});
