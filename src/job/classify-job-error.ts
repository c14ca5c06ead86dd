import { NoTestCommandError } from '../fix/fix-input.js';
import { StateFileError } from '../fix/state-file.js';
import { GitHubError } from '../github/errors.js';
import { SandboxCapacityError, SandboxLimitError } from '../sandbox/errors.js';
import { GitError } from '../workspace/git.js';
import { GitRemoteError } from '../workspace/mirror-remote.js';
import { PushConflictError, PushRefusedError } from '../workspace/push-branch.js';
import { ImageError } from '../image/image-error.js';
import { PathPolicyError } from './path-policy.js';
import { SetupSecretsDeniedError } from './setup-secrets.js';

export interface JobErrorVerdict {
  /** Worth another attempt: GitHub or the network had a bad moment. */
  retryable: boolean;
  /** What the status comment says. */
  sentence: string;
}

/** Typed errors in, a decision out: never by message text. */
export function classifyJobError(error: unknown): JobErrorVerdict {
  if (error instanceof GitHubError) {
    const transient = error.kind === 'server' || error.kind === 'rate_limited' || error.kind === 'network';
    return { retryable: transient, sentence: `GitHub answered with an error${error.status ? ` (${error.status})` : ''}: ${error.message}` };
  }
  if (error instanceof SandboxLimitError) {
    return { retryable: false, sentence: `Stopped: ${error.message}. Nothing was published.` };
  }
  if (error instanceof SandboxCapacityError) {
    return { retryable: true, sentence: `No sandbox was free: ${error.message}` };
  }
  if (error instanceof PushRefusedError || error instanceof PathPolicyError) {
    return { retryable: false, sentence: `The fix was not pushed: ${error.message}` };
  }
  if (error instanceof PushConflictError) {
    return { retryable: false, sentence: `Someone else pushed to the branch meanwhile, so greenfix did not overwrite it: ${error.message}` };
  }
  if (error instanceof GitRemoteError) {
    return { retryable: error.transient, sentence: `The repository could not be ${error.operation === 'push' ? 'pushed to' : 'fetched'} (${error.kind}).` };
  }
  if (error instanceof NoTestCommandError) {
    return { retryable: false, sentence: `Stopped before asking the model: ${error.message}. Add a \`verify:\` line with your test command to \`.github/greenfix.yml\`, then \`/agent retry\`.` };
  }
  if (error instanceof SetupSecretsDeniedError) {
    return { retryable: false, sentence: `Stopped before setup: ${error.message}, then \`/agent retry\`.` };
  }
  if (error instanceof ImageError) {
    return { retryable: false, sentence: `Stopped before asking the model: the environment image could not be used. ${error.message}. Then \`/agent retry\`.` };
  }
  if (error instanceof StateFileError) {
    return { retryable: false, sentence: `The job's saved state cannot be read (${error.problem}), so greenfix stopped rather than guess what already happened; \`/agent retry\` starts afresh.` };
  }
  if (error instanceof GitError) {
    return { retryable: true, sentence: `A git command failed: ${error.message}` };
  }
  return { retryable: true, sentence: `greenfix failed: ${error instanceof Error ? error.message : String(error)}` };
}
