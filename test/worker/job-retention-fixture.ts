import { lstatSync, lutimesSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobQueue } from '../../src/queue/types.js';
import { jobRequest } from '../queue/job-requests.js';

export const NOW = Date.parse('2026-11-29T12:00:00Z');
export const DAY = 86_400_000;

/** Sets the mtime of `path` and everything under it (not following symlinks) to `ms`. */
export function touchTree(path: string, ms: number): void {
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) touchTree(join(path, name), ms);
  lutimesSync(path, ms / 1000, ms / 1000);
}

/** A job directory as runJob leaves it after the worktree is gone: journal and state; every file `ageMs` old. */
export function writeJobDir(workdir: string, id: string, ageMs: number): string {
  const dir = join(workdir, 'jobs', id);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileSync(join(dir, 'journal.jsonl'), '{"type":"start"}\n'.repeat(10));
  writeFileSync(join(dir, 'run.json'), '{"setupDone":true}');
  writeFileSync(join(dir, 'logs', 'setup.log'), 'x'.repeat(1000));
  touchTree(dir, NOW - ageMs);
  return dir;
}

let repo = 100;

/**
 * A job of its own repository in the state asked for. Make queued jobs last: claiming the next
 * one for `running`/`succeeded`/`failed` would take an older queued job first.
 */
export async function jobIn(queue: JobQueue, state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'): Promise<string> {
  repo += 1;
  const { job } = await queue.enqueue(jobRequest(repo, 1), { deliveryId: `d-${repo}`, maxAttempts: 1 });
  if (state === 'queued') return job.id;
  if (state === 'cancelled') {
    await queue.cancel(job.subject, 'superseded');
    return job.id;
  }
  const claimed = await queue.claim({ workerId: 'w', leaseMs: 60_000, maxRunning: 1000 });
  if (claimed?.job.id !== job.id) throw new Error(`claimed ${claimed?.job.id ?? 'nothing'}, not ${job.id}`);
  if (state === 'succeeded') await queue.complete(claimed.lease, { status: 'verified' });
  if (state === 'failed') await queue.fail(claimed.lease, { message: 'boom', retryable: false });
  return job.id;
}
