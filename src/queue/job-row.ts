import * as z from 'zod';
import type { Job } from './types.js';
import { CorruptJobError } from './errors.js';
import { jobRequestSchema } from './job-request-schema.js';

/** A row of `jobs` as better-sqlite3 returns it. */
export interface JobRow {
  seq: number;
  id: string;
  delivery_id: string;
  dedupe_key: string | null;
  subject: string;
  repo_key: string;
  request: string;
  state: string;
  attempts: number;
  max_attempts: number;
  run_after: number;
  created_at: number;
  updated_at: number;
  cancel_reason: string | null;
  error: string | null;
  result: string | null;
  lease_token: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  authorize: string | null;
}

const stateSchema = z.enum(['authorizing', 'queued', 'running', 'succeeded', 'failed', 'cancelled']);
const authorizeSchema = z.enum(['refusal', 'outsider', 'quiet']).nullable();

/** Maps a row to a Job, validating the JSON columns: a damaged row fails loudly, naming the job. */
export function rowToJob(row: JobRow): Job {
  const state = stateSchema.safeParse(row.state);
  if (!state.success) throw new CorruptJobError(row.id, `unknown state ${JSON.stringify(row.state)}`);
  const request = jobRequestSchema.safeParse(parseJson(row.id, 'request', row.request));
  if (!request.success) throw new CorruptJobError(row.id, `request: ${z.prettifyError(request.error)}`);
  const authorize = authorizeSchema.safeParse(row.authorize ?? null);
  if (!authorize.success) throw new CorruptJobError(row.id, `unknown authorize mode ${JSON.stringify(row.authorize)}`);
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    dedupeKey: row.dedupe_key,
    subject: row.subject,
    repoKey: row.repo_key,
    request: request.data,
    state: state.data,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAfter: row.run_after,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    cancelReason: row.cancel_reason,
    error: row.error,
    result: row.result === null ? null : parseJson(row.id, 'result', row.result),
    authorize: authorize.data,
  };
}

/** Serialises a worker's result; `undefined` is stored as null so a read gives back JSON. */
export function resultToColumn(result: unknown): string | null {
  return result === undefined ? null : JSON.stringify(result);
}

function parseJson(jobId: string, column: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CorruptJobError(jobId, `${column} is not valid JSON`);
  }
}
