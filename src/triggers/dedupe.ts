import type { JobRequest } from './types.js';

/**
 * The same failure (head SHA and failing checks) is fixed once, however many events report it.
 * Other jobs by what asked for them (`content`: content-key.ts), so a replayed or redelivered
 * webhook under a new delivery id makes no second job; and by delivery id and the
 * one-active-job-per-subject rule, as before.
 */
export function dedupeKeyFor(request: JobRequest, content?: string): string | undefined {
  if (request.kind !== 'ci_fix' || !request.ci) return content;
  const checks = [...request.ci.checks].sort().join(',');
  return `ci:${request.repo.id}:${request.number}:${request.ci.headSha}:${checks}`;
}
