import type { Logger } from 'pino';
import type { JobRequest } from '../triggers/types.js';

/**
 * The ids that tie log lines together: a delivery's lines to its job, a job's lines to its
 * repository. Field names are fixed so one query (`jobId="…"`) finds everything.
 */
export interface LogContext {
  deliveryId?: string;
  jobId?: string;
  /** `owner/name`. */
  repo?: string;
  /** A delivery's event (`issues`). */
  event?: string;
}

/** A child logger carrying the given ids (absent ones are left out, not logged as undefined). */
export function withLogContext(log: Logger, context: LogContext): Logger {
  const bindings: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (typeof value === 'string' && value !== '') bindings[key] = value;
  }
  return log.child(bindings);
}

/** The logger of one webhook delivery: one child, however many ids (a task after the answer holds it). */
export function deliveryLogger(log: Logger, ids: { deliveryId: string; repo?: string | undefined; event: string }): Logger {
  return withLogContext(log, { deliveryId: ids.deliveryId, event: ids.event, ...(ids.repo ? { repo: ids.repo } : {}) });
}

/** The logger of one job: its id, the delivery that made it, and its repository. */
export function jobLogger(
  log: Logger,
  job: { id: string; deliveryId: string; request: Pick<JobRequest, 'repo'> },
): Logger {
  const { owner, name } = job.request.repo;
  return withLogContext(log, { jobId: job.id, deliveryId: job.deliveryId, repo: `${owner}/${name}` });
}
