import { newJobReport } from '../github/report.js';
import { renderStatusComment } from '../github/render-status-comment.js';
import { statusMarker } from '../github/status-marker.js';
import type { GitHost } from '../github/types.js';
import type { Job, JobQueue } from '../queue/types.js';

/**
 * Jobs cancelled while queued after they had run once (waiting for a spend cap or a PR limit, or
 * for a retry's backoff) left a status comment saying they would run: it now says they were
 * cancelled, and why. A job never claimed has no comment, and none is created.
 */
export async function closeWaitingComments(host: GitHost, jobs: readonly Job[], sentence: string): Promise<void> {
  for (const job of jobs) {
    if (job.state !== 'cancelled' || (job.attempts === 0 && job.error === null)) continue;
    const report = { ...newJobReport(job.id, job.request.kind, job.request.number, 0), outcome: { status: 'cancelled' as const, sentence } };
    const marker = statusMarker(job.id);
    await host.editMarkedComment(job.request.number, marker, `${marker}\n${renderStatusComment(report)}`);
  }
}

/** The jobs a newer request superseded (ids from the queue): their waiting comments say so. */
export async function closeSupersededComments(host: GitHost, queue: Pick<JobQueue, 'get'>, ids: readonly string[], number: number): Promise<void> {
  const jobs = (await Promise.all(ids.map((id) => queue.get(id)))).filter((job): job is Job => job !== null);
  await closeWaitingComments(host, jobs, `A newer request for #${number} replaced it.`);
}
