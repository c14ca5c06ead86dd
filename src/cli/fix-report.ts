import type { FixResult } from '../fix/run-fix.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import type { LocalRun } from './local-run.js';

/** Prints the result (human lines on stderr, `--json` summary as the last stdout line); returns the exit code. */
export function reportFix(result: FixResult, run: LocalRun, json: boolean, io: CliIo): number {
  const { outcome } = result;
  const tokens = outcome.tokens.prompt + outcome.tokens.completion;
  const published = result.status === 'published' ? result.published : null;
  const reason = result.status === 'not_verified' ? result.reason : outcome.reason;
  if (published) {
    io.stderr(`greenfix: verified tree ${published.tree} (${outcome.verified?.command}), committed ${published.commit} on ${published.branch}`);
    io.stderr(`greenfix: check it: git rev-parse ${published.branch}^{tree}`);
    io.stderr(`greenfix: journal: ${run.journal}`);
  } else {
    io.stderr(`greenfix: no commit: ${reason}`);
    io.stderr(`greenfix: worktree kept for inspection: ${run.worktree} (resume with --resume)`);
  }
  io.stderr(`greenfix: what it did, step by step: greenfix log --run ${run.dir}`);
  const code = published ? ExitCode.verified : outcome.status === 'model_error' ? ExitCode.failure : ExitCode.notVerified;
  if (json) {
    io.stdout(
      JSON.stringify({
        status: published ? 'verified' : outcome.status === 'verified' ? 'not_verified' : outcome.status,
        branch: published?.branch ?? null,
        commit: published?.commit ?? null,
        verifiedTree: published?.tree ?? null,
        steps: outcome.steps,
        tokens,
        reason,
      }),
    );
  }
  return code;
}
