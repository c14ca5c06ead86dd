import { codeBlock, codeSpan, details, formatDuration, oneLine, tail } from './markdown.js';
import type { Evidence } from './report.js';
import { renderTestChanges } from './render-test-changes.js';

/** Output tail shown with the evidence; the check run's text carries more. */
export const EVIDENCE_TAIL_CHARS = 8000;

/** The command anyone can run to see that the pushed commit is the tree the tests passed on. */
export function verifyCommand(evidence: Pick<Evidence, 'branch' | 'commit'>): string {
  return `git fetch origin ${evidence.branch} && git rev-parse ${evidence.commit}^{tree}`;
}

/** The facts, one per line: a list, not a table (a `|` in a command would break a table). */
export function evidenceFacts(evidence: Evidence): string {
  return [
    `- verified tree: ${codeSpan(evidence.tree)}`,
    `- commit: ${codeSpan(evidence.commit)} on ${codeSpan(evidence.branch)}`,
    `- command: ${codeSpan(oneLine(evidence.command, 1000))}`,
    `- exit code: ${evidence.exitCode}`,
    `- duration: ${formatDuration(evidence.durationMs)}`,
    ...(evidence.environment ? [`- environment: ${codeSpan(evidence.environment.image)} pinned at ${codeSpan(evidence.environment.digest)}`] : []),
  ].join('\n');
}

export function howToCheck(evidence: Evidence): string {
  return `Check it yourself — this prints ${codeSpan(evidence.tree)}:\n\n${codeBlock(verifyCommand(evidence), 'sh')}`;
}

/** Facts, the output tail (collapsed) and how to check it: PR body and status comment share it. */
export function renderEvidence(evidence: Evidence, tailChars = EVIDENCE_TAIL_CHARS): string {
  return [
    evidenceFacts(evidence),
    ...(evidence.tests ? [renderTestChanges(evidence.tests)] : []),
    details('Test output (tail)', codeBlock(tail(evidence.outputTail, tailChars))),
    howToCheck(evidence),
  ].join('\n\n');
}
