import type { FixResult } from '../fix/run-fix.js';
import { evidenceLines } from '../agent/tools/test-verdict-text.js';
import { noNewFailuresNote } from '../verify/test-evidence.js';
import { lastTestOutput, testsSentence } from '../job/outcome.js';
import { costText, describeCost, type Cost } from '../model/cost.js';
import { costSentence } from '../util/cost-sentence.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';
import type { LocalRun } from './local-run.js';

/** Prints the result (human lines on stderr, `--json` summary as the last stdout line); returns the exit code. */
export function reportFix(result: FixResult, run: LocalRun, json: boolean, io: CliIo, cost: Cost): number {
  const { outcome } = result;
  const tokens = outcome.tokens.prompt + outcome.tokens.completion;
  const published = result.status === 'published' ? result.published : null;
  const reason = result.status === 'not_verified' ? result.reason : outcome.reason;
  const tests = published ? (outcome.verified?.tests ?? null) : null;
  if (published) {
    const note = outcome.verified ? noNewFailuresNote(outcome.verified) : null;
    io.stderr(`greenfix: verified tree ${published.tree} (${outcome.verified?.command}, in a clean room of the tree alone${note ? `; ${note}` : ''}), committed ${published.commit} on ${published.branch}`);
    if (tests) for (const line of evidenceLines(tests)) io.stderr(`greenfix: ${line}`);
    io.stderr(`greenfix: check it: git rev-parse ${published.branch}^{tree}`);
    io.stderr(`greenfix: journal: ${run.journal}`);
    io.stderr(`greenfix: ${costSentence(costText(cost), 'this fix')}`);
  } else {
    io.stderr(`greenfix: no commit: ${reason}`);
    const tests = testsSentence(lastTestOutput(run.journal), null);
    if (tests) io.stderr(`greenfix: ${tests}`);
    io.stderr(`greenfix: ${costSentence(costText(cost), 'this attempt', 'produced no commit')}`);
    io.stderr(`greenfix: worktree kept for inspection: ${run.worktree} (resume with --resume)`);
  }
  io.stderr(`greenfix: ${tokenFigures(outcome.tokens)}`);
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
        // The part of the prompt tokens the endpoint served from its prompt cache (priced lower).
        cachedPromptTokens: outcome.tokens.cachedPrompt ?? 0,
        // True when some reply came without usage: the counts (and the cost) are estimates.
        tokensEstimated: outcome.tokens.estimated ?? false,
        // A number only when the model has a price: an unknown cost is never a made-up 0.
        costUsd: cost.known ? roundCents(cost.usd) : null,
        cost: describeCost(cost),
        reason,
        baseline: result.baseline ?? null,
        // Every connection the setup step made through the egress proxy, and every one it refused.
        egress: result.egress ?? null,
        // The environment image every command ran in, pinned by digest; null: the host's userland.
        environment: result.environment ?? null,
        // The clean room the verdict ran in: what materialising the tree and restoring setup's state cost.
        cleanRoom: published ? (outcome.verified?.cleanRoom ?? null) : null,
        tests: tests ? { mode: tests.mode, format: tests.format, totals: tests.totals, ...(tests.comparison ?? {}), fallback: tests.fallback } : null,
      }),
    );
  }
  return code;
}

/** "tokens: 12,000 (10,000 prompt, 45% of it from the provider's cache; 2,000 output)", estimated when they were. */
export function tokenFigures(tokens: FixResult['outcome']['tokens']): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const cached = tokens.prompt > 0 ? Math.round(((tokens.cachedPrompt ?? 0) / tokens.prompt) * 100) : 0;
  const estimated = tokens.estimated ? ', estimated: the endpoint reported no usage' : '';
  return `tokens: ${n(tokens.prompt + tokens.completion)} (${n(tokens.prompt)} prompt, ${cached}% of it from the provider's cache; ${n(tokens.completion)} output${estimated})`;
}

/** To a hundredth of a cent: what the JSON reader sees is the priced usage, not float noise. */
function roundCents(usd: number): number {
  return Math.round(usd * 10_000) / 10_000;
}
