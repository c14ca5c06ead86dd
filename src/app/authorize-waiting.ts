import type { GitHost } from '../github/types.js';
import type { JobQueue } from '../queue/types.js';
import type { JobRequest } from '../triggers/types.js';
import { authorizeJob, type AuthorizeJobDeps } from './authorize-job.js';

export interface AuthorizeWaitingDeps extends Omit<AuthorizeJobDeps, 'host' | 'queue' | 'readConfig'> {
  queue: AuthorizeJobDeps['queue'] & Pick<JobQueue, 'awaitingAuthorization'>;
  /** A REST client on the job's repository, as the handler's (the delivery's own is gone). */
  hostFor: (request: JobRequest) => Promise<GitHost>;
  /** The raw `.github/greenfix.yml` of the job's repository, as the handler reads it. */
  readConfigFor: (request: JobRequest) => Promise<unknown>;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** Jobs decided per sweep: a backlog this large is already a rare crash loop. */
export const AWAITING_BATCH = 100;

/**
 * The jobs a receiver recorded 'authorizing' and never decided (it stopped between its answer
 * and the config and permission checks), created before `before`: decided now, one by one, exactly as the
 * handler would have (authorize-job.ts). The 👀 of the comment that asked is not known any more;
 * the status comment still comes when the job runs. A job whose check fails stays for the next sweep.
 * Returns how many were decided here.
 */
export async function authorizeWaiting(deps: AuthorizeWaitingDeps, before: number): Promise<number> {
  let decided = 0;
  for (const job of await deps.queue.awaitingAuthorization(before, AWAITING_BATCH)) {
    try {
      const { result, detail } = await authorizeJob({ ...deps, host: await deps.hostFor(job.request), readConfig: () => deps.readConfigFor(job.request) }, job, null);
      if (result !== 'unchanged') decided += 1;
      deps.log.info({ jobId: job.id, result, detail }, 'a job left waiting for its authorisation was decided');
    } catch (error) {
      deps.log.warn({ jobId: job.id, err: error instanceof Error ? error.message : String(error) }, 'authorising a waiting job failed; the next sweep tries again');
    }
  }
  return decided;
}
