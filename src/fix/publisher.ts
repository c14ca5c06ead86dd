import type { VerifiedTree } from '../workspace/types.js';
import { truncate } from '../util/truncate.js';

/** What gets published: exactly the verified tree, on top of the base. */
export interface PublishInput {
  verified: VerifiedTree;
  baseCommit: string;
  task: string;
  summary: string;
  /** Fixed for the run, so publishing again after a crash makes the same commit. */
  date: Date;
}

export interface Published {
  branch: string;
  commit: string;
  tree: string;
  /** The pull request that carries the commit (GitHub App). */
  pullRequest?: { number: number; url: string };
}

/**
 * Where a verified tree goes: a local branch (CLI) or a pushed branch and a pull request (the
 * GitHub App). Implementations must be idempotent: called twice, they make one branch and commit.
 */
export interface Publisher {
  publish(input: PublishInput): Promise<Published>;
}

/** The commit message: a subject from the task, the model's summary, and trailers anyone can check. */
export function commitMessage(input: PublishInput): string {
  const firstLine = input.task.trim().split('\n')[0] ?? 'greenfix';
  const subject = truncate(firstLine, 72);
  return [
    subject,
    '',
    input.summary.trim(),
    '',
    `Verified-tree: ${input.verified.tree}`,
    `Verified-by: ${input.verified.command}`,
  ].join('\n');
}
