import type { FailedCheck } from '../github/types.js';
import type { JobRequest } from '../triggers/types.js';
import type { JobTarget } from './target.js';
import { EMPTY_TASK_CONTEXT, renderTaskContext, type TaskContext } from './task-context.js';

/** Characters of CI output per failed check that go into the task. */
const CHECK_CHARS = 6_000;

/**
 * The task the model reads. Its first line is the commit subject. Issue text, instructions and
 * CI output are untrusted; the agent sanitises the whole task before the model sees it.
 */
export function jobTask(request: JobRequest, target: JobTarget, failed: FailedCheck[], context: TaskContext = EMPTY_TASK_CONTEXT): string {
  const parts = [target.title, ''];
  if (request.kind === 'ci_fix') {
    parts.push(ciSection(request, failed));
    parts.push(`The pull request's description:\n${request.body.trim() || '(empty)'}`);
  } else if (request.target === 'pull_request') {
    parts.push(`The pull request's description:\n${request.body.trim() || '(empty)'}`);
  } else {
    parts.push(request.body.trim() || '(the issue has no description)');
  }
  const reviewBody = request.review?.body.trim();
  if (reviewBody) parts.push('', `The review by @${request.sender}:`, reviewBody);
  parts.push(...renderTaskContext(context, target.fixesIssue !== null && request.target === 'pull_request' ? `Issue #${target.fixesIssue}` : 'The issue'));
  if (request.instructions) {
    parts.push('', `Instructions from @${request.sender} (\`/agent\`):`, request.instructions);
  }
  return parts.join('\n');
}

function ciSection(request: JobRequest, failed: FailedCheck[]): string {
  const sha = request.ci?.headSha.slice(0, 12) ?? 'the head commit';
  const names = request.ci?.checks.join(', ') ?? '';
  const lines = [`CI failed on ${sha} (${names}). Make the failing checks pass without weakening them.`, ''];
  for (const check of failed) {
    lines.push(`## ${check.name}`);
    if (check.output.trim()) lines.push(clip(check.output));
    if (check.log?.trim()) lines.push('Log (the failing part):', clip(check.log));
    lines.push('');
  }
  if (failed.length === 0) lines.push('(GitHub gave no output for the failing checks; run the tests to see the failure.)', '');
  return lines.join('\n');
}

function clip(text: string): string {
  return text.length <= CHECK_CHARS ? text : `${text.slice(0, CHECK_CHARS / 3)}\n[...]\n${text.slice(-(CHECK_CHARS * 2) / 3)}`;
}
