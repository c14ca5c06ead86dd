import type { GitHost } from '../github/types.js';

/**
 * The sentence a job's final status adds when its issue was closed meanwhile without stopping it
 * (an issue's author may close it, and only a closer with write access cancels), or null.
 */
export async function closedIssueNote(host: GitHost, issueNumber: number): Promise<string | null> {
  const closure = await host.issueClosure(issueNumber);
  if (!closure) return null;
  if (closure.closedBy !== null && closure.closedBy === closure.author) {
    return 'The issue was closed by its author while greenfix worked on it; that does not stop greenfix (someone with write access closing it, or `/agent cancel`, does).';
  }
  return 'The issue was closed while greenfix worked on it.';
}
