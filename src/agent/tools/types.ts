import type * as z from 'zod';
import type { SandboxRunner } from '../../sandbox/types.js';
import type { BaselineSummary } from '../../verify/test-evidence.js';
import type { TestReport } from '../../verify/test-report.js';
import type { VerifyMode } from '../../verify/verify-policy.js';
import type { ObservableWorkspace, VerifiedTree } from '../../workspace/types.js';

export interface ToolContext {
  workspace: ObservableWorkspace;
  sandbox: SandboxRunner;
  /** The repository's test command; null when none was detected or given. */
  verifyCommand: string | null;
  /** The last verified tree, if any (read-only here: the loop records verifications). */
  verified: VerifiedTree | null;
  /** Owner for files the tools create, so the sandbox user can change them later; null = leave as is. */
  fileOwner: { uid: number; gid: number } | null;
  limits: ToolLimits;
  signal?: AbortSignal;
  /** verify_mode and the baseline run on the base tree; absent = all_pass without a baseline. */
  tests?: TestPolicy;
}

export interface TestPolicy {
  mode: VerifyMode;
  /** The base tree's test report; null when its output could not be read (exit code only). */
  baseline: TestReport | null;
  baselineSummary: BaselineSummary | null;
  /** `tests.allow_removed`: base tests removed or skipped now may still verify (they are listed). Default false. */
  allowRemovedTests?: boolean;
}

export interface ToolLimits {
  /** Characters of tool output the model sees (head + tail). */
  outputChars: number;
  /** Default and maximum `timeout` of `run`, seconds. */
  runTimeoutSec: number;
  runTimeoutMaxSec: number;
  /** Wall time of one `run_tests`, seconds. */
  testTimeoutSec: number;
}

/** What a tool hands back. Effects on the run (verification, finish) are data the loop applies. */
export interface ToolResult {
  /** The observation the model reads. */
  output: string;
  /** False when the call was refused or failed; the model still reads `output`. */
  ok: boolean;
  verified?: VerifiedTree;
  finish?: { summary: string; gaveUp: boolean };
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  schema: S;
  /** Safe to run again after a crash (no effect on the workspace). */
  readOnly: boolean;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
}
