import { rowToJob, type JobRow } from './job-row.js';
import type { Job } from './types.js';

/**
 * A job hash as HGETALL returns it from a script (a flat [field, value, ...] list). The fields are
 * JobRow's columns, so both queues share one validating mapper (rowToJob): a damaged hash throws
 * CorruptJobError naming the job, exactly like a damaged SQLite row.
 */
export function hashToJob(flat: unknown): Job {
  return rowToJob(hashToRow(flat));
}

export function hashToRow(flat: unknown): JobRow {
  const list = Array.isArray(flat) ? (flat as unknown[]).map(String) : [];
  const h = new Map<string, string>();
  for (let i = 0; i + 1 < list.length; i += 2) h.set(list[i]!, list[i + 1]!);
  const text = (f: string) => h.get(f) ?? null;
  const int = (f: string) => Number(h.get(f));
  return {
    seq: int('seq'),
    id: h.get('id') ?? '',
    delivery_id: h.get('delivery_id') ?? '',
    dedupe_key: text('dedupe_key'),
    subject: h.get('subject') ?? '',
    repo_key: h.get('repo_key') ?? '',
    request: h.get('request') ?? '',
    state: h.get('state') ?? '',
    attempts: int('attempts'),
    max_attempts: int('max_attempts'),
    run_after: int('run_after'),
    created_at: int('created_at'),
    updated_at: int('updated_at'),
    cancel_reason: text('cancel_reason'),
    error: text('error'),
    result: text('result'),
    lease_token: text('lease_token'),
    lease_owner: text('lease_owner'),
    lease_until: h.has('lease_until') ? int('lease_until') : null,
    authorize: text('authorize'),
  };
}
