import { call } from './errors.js';
import type { HostDeps } from './host-deps.js';

/**
 * The plain-text log of a GitHub Actions job. GitHub answers with a 302 to a short-lived storage
 * URL; fetch follows it (and drops our Authorization header on the way to another origin).
 */
export async function downloadJobLog(deps: HostDeps, jobId: number): Promise<string> {
  const { data } = await call('download job log', () =>
    deps.octokit.rest.actions.downloadJobLogsForWorkflowRun({ owner: deps.owner, repo: deps.repo, job_id: jobId }),
  );
  return asText(data);
}

function asText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
  return data === undefined || data === null ? '' : JSON.stringify(data);
}
