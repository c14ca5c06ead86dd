/**
 * The hidden marker that finds a job's status comment again (after a crash, a retry, a second
 * worker). Characters that could end the HTML comment early are replaced.
 */
export function statusMarker(jobId: string): string {
  return `<!-- greenfix:status job=${safeId(jobId)} -->`;
}

/** Marker of the PR body: names the job that wrote it, for people and for support. */
export function pullRequestMarker(jobId: string): string {
  return `<!-- greenfix:pr job=${safeId(jobId)} -->`;
}

function safeId(jobId: string): string {
  return jobId.replace(/[^\w.:-]/g, '_').replace(/-{2,}/g, (m) => '_'.repeat(m.length));
}
