import type { RepoConfig } from '../config/repo-config.js';
import type { GitHost } from '../github/types.js';
import type { Job } from '../queue/types.js';
import type { JobRequest } from '../triggers/types.js';
import { CHECK_NAME } from '../github/render-check-run.js';

/**
 * Loop guards of a CI fix, checked before any work: at most `autofix.max_attempts` fixes per
 * PR (then a check run says so), and none when the same checks fail on the base branch too
 * (the PR did not break them). Returns why the job stops, or null to go on. `baseBranch` is the
 * branch the failing PR merges into, not where greenfix's fix goes: for a human's PR the fix
 * targets the PR's own head branch, which of course fails the same way.
 */
export async function ciGuard(
  request: JobRequest,
  baseBranch: string,
  config: RepoConfig,
  host: GitHost,
  earlierJobs: Job[],
  jobId: string,
): Promise<string | null> {
  if (request.kind !== 'ci_fix' || !request.ci) return null;
  const attempts = earlierJobs.filter((j) => j.id !== jobId && j.request.kind === 'ci_fix' && j.attempts > 0).length;
  const max = config.autofix.max_attempts;
  if (attempts >= max) {
    const message = `greenfix already tried to fix CI on #${request.number} ${attempts} times (the limit is ${max}, \`autofix.max_attempts\`); over to a human.`;
    await host.upsertCheckRun({
      name: CHECK_NAME,
      headSha: request.ci.headSha,
      externalId: `${jobId}:limit`,
      status: 'completed',
      conclusion: 'neutral',
      output: { title: 'CI fix attempts limit reached', summary: message },
    });
    return message;
  }
  // Compared by check run name on both commits: a workflow's name is not its jobs' check names.
  const onHead = await host.failingCheckNames(request.ci.headSha);
  const onBase = new Set(await host.failingCheckNames(baseBranch));
  if (onHead.length > 0 && onHead.every((name) => onBase.has(name))) {
    const names = onHead.map((n) => `\`${n}\``).join(', ');
    return `${names} fail${onHead.length === 1 ? 's' : ''} on \`${baseBranch}\` too; that is not this pull request's doing, so greenfix leaves it alone.`;
  }
  return null;
}
