import type { EnvironmentEvidence } from '../verify/environment-evidence.js';
import type { JobKind } from '../triggers/types.js';
import type { TestEvidence } from '../verify/test-evidence.js';
import type { CostText } from '../util/cost-sentence.js';

/**
 * What a job's status comment, PR body and check run say, as data: the job runner fills it in,
 * the render functions turn it into Markdown. Nothing secret goes in here.
 */
export type PhaseName = 'queued' | 'workspace' | 'setup' | 'baseline' | 'agent' | 'verification' | 'pull_request';
export type PhaseState = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface Phase {
  name: PhaseName;
  state: PhaseState;
  /** One short line: "3 steps", "npm test passed in 4.2 s", "#12". */
  detail?: string;
}

/** The evidence of DESIGN §3.2: anyone can check `git rev-parse HEAD^{tree}` against `tree`. */
export interface Evidence {
  tree: string;
  command: string;
  exitCode: number;
  durationMs: number;
  outputTail: string;
  commit: string;
  branch: string;
  /** Per-test evidence against the baseline (absent: a run from before greenfix read reports). */
  tests?: TestEvidence;
  /** The environment image the tests ran in, pinned by digest; absent: the host's userland. */
  environment?: EnvironmentEvidence;
}

export type OutcomeStatus = 'published' | 'not_verified' | 'failed' | 'cancelled';

export interface JobOutcomeReport {
  status: OutcomeStatus;
  /** One sentence a maintainer reads first: what happened, or why not. */
  sentence: string;
  pullRequest?: { number: number; url: string };
  evidence?: Evidence;
  /** The last test output (failures), clipped. */
  outputTail?: string;
  /** The `greenfix/verify` check run that carries the run log ("What greenfix did →"). */
  runLogUrl?: string;
  /** The signed run page, when greenfix has a public URL. */
  runPageUrl?: string;
}

export interface JobReport {
  jobId: string;
  kind: JobKind;
  /** The issue or PR number the job answers on. */
  number: number;
  phases: Phase[];
  steps: number;
  maxSteps: number;
  tokens: number;
  /** Cost so far, worded once (model/cost.ts `costText`): "$0.84" or "cost unknown (no price for m)". */
  cost?: CostText;
  outcome?: JobOutcomeReport;
}

export const PHASES: readonly PhaseName[] = ['queued', 'workspace', 'setup', 'baseline', 'agent', 'verification', 'pull_request'];

/** A fresh report: every phase pending but `queued`, which is done (the job exists). */
export function newJobReport(jobId: string, kind: JobKind, number: number, maxSteps: number): JobReport {
  return {
    jobId,
    kind,
    number,
    phases: PHASES.map((name) => ({ name, state: name === 'queued' ? 'done' : 'pending' })),
    steps: 0,
    maxSteps,
    tokens: 0,
  };
}
