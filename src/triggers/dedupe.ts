import type { JobRequest } from './types.js';

/**
 * The same failure (head SHA and failing checks) is fixed once, however many events report it.
 * Other jobs are deduplicated by delivery id and by the one-active-job-per-subject rule instead.
 */
export function dedupeKeyFor(request: JobRequest): string | undefined {
  if (request.kind !== 'ci_fix' || !request.ci) return undefined;
  const checks = [...request.ci.checks].sort().join(',');
  return `ci:${request.repo.id}:${request.number}:${request.ci.headSha}:${checks}`;
}
