import type { EnvironmentEvidence } from '../verify/environment-evidence.js';
import type { Tokens } from '../agent/types.js';
import { neutralise } from '../util/neutralise.js';
import { noNewFailuresNote } from '../verify/test-evidence.js';
import type { VerifiedTree } from '../workspace/types.js';
import { truncate } from '../util/truncate.js';

/** What gets published: exactly the verified tree, on top of the base. */
export interface PublishInput {
  verified: VerifiedTree;
  baseCommit: string;
  task: string;
  summary: string;
  /** The run's usage, as reported: what the publisher prices for the PR body and check run. */
  tokens?: Tokens;
  /** Fixed for the run, so publishing again after a crash makes the same commit. */
  date: Date;
  /** The environment image the verdict ran in (the job sandbox's), for the evidence; absent: the host's userland. */
  environment?: EnvironmentEvidence;
}

export interface Published {
  branch: string;
  commit: string;
  tree: string;
  /** The pull request that carries the commit (GitHub App). */
  pullRequest?: { number: number; url: string };
  /** The check run that shows the evidence (GitHub App); absent in a run published before it was recorded. */
  checkRunUrl?: string;
}

/**
 * Where a verified tree goes: a local branch (CLI) or a pushed branch and a pull request (the
 * GitHub App). Implementations must be idempotent: called twice, they make one branch and commit.
 */
export interface Publisher {
  publish(input: PublishInput): Promise<Published>;
}

/** A commit's subject, in characters: what `git log --oneline` and GitHub show in full. */
export const COMMIT_SUBJECT_CHARS = 72;
/** The model's summary in the commit body, in characters (the PR body carries the rest). */
export const COMMIT_BODY_CHARS = 4_000;

/** greenfix's own subject prefix (`Fix #12: `, `Fix CI on #7: `): the job's own issue, kept live. */
const OWN_PREFIX = /^Fix (?:CI on )?#\d+: /;

/**
 * A commit subject (also the PR title) from the task's first line: greenfix's own `Fix #<n>: `
 * stays, the rest (an issue title: untrusted) is neutralised and the whole capped at 72 characters.
 */
export function commitSubject(firstLine: string): string {
  const subject = neutraliseTitle(firstLine) || 'greenfix';
  return truncate(subject, COMMIT_SUBJECT_CHARS);
}

/** A title on one line with greenfix's own prefix kept and the rest neutralised (PR titles too). */
export function neutraliseTitle(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim();
  const own = OWN_PREFIX.exec(line)?.[0] ?? '';
  return `${own}${neutralise(line.slice(own.length), { for: 'commit' })}`.trim();
}

/** The command, and under `no_new_failures` on a red run what it means: one line. */
function verifiedBy(verified: VerifiedTree): string {
  const note = noNewFailuresNote(verified);
  return (note ? `${verified.command}; ${note}` : verified.command).replace(/\s+/g, ' ');
}

/**
 * The commit message: the subject, the model's summary (neutralised like a PR body: no closing
 * keywords, mentions or HTML; capped), and trailers anyone can check (`Verified-tree:` is relied on).
 */
export function commitMessage(input: PublishInput): string {
  const summary = neutralise(input.summary.trim(), { for: 'commit' });
  const body = summary.length > COMMIT_BODY_CHARS ? `${summary.slice(0, COMMIT_BODY_CHARS - 30).trimEnd()}\n[… summary cut]` : summary;
  return [
    commitSubject(input.task.trim().split('\n')[0] ?? ''),
    '',
    ...(body === '' ? [] : [body, '']),
    `Verified-tree: ${input.verified.tree}`,
    `Verified-by: ${neutralise(verifiedBy(input.verified), { for: 'commit' })}`,
  ].join('\n');
}
