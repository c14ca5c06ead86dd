import type { ContextLimits } from '../src/agent/context.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { CLI_CONTEXT } from './scripted-run.js';
import { withScriptedSessions } from './scripted-sessions.js';
import { recordTokens } from './token-recorder.js';

export interface ContextTokensOptions {
  sandbox: Sandbox;
  steps?: number;
  files?: number;
  /** Budgets to measure; each against the same unbudgeted baseline. Default: the CLI's. */
  budgets?: readonly ContextLimits[];
}

export interface BudgetFigures extends ContextLimits {
  /** Sum of the estimated tokens of every request sent under this budget. */
  sentTokens: number;
  /** The largest single request. */
  maxRequestTokens: number;
  /** sentTokens / the baseline's: the share of full-history tokens actually sent. */
  ratio: number;
}

export interface ContextTokensBench {
  steps: number;
  files: number;
  /** Baseline: the same session keeping the full history (nothing elided). */
  fullTokens: number;
  maxFullRequestTokens: number;
  budgets: BudgetFigures[];
}

/**
 * Tokens a scripted session sends under a context budget versus keeping the full history. Each
 * run replays the same script in a fresh worktree of the same repository, so the only
 * difference between them is what fitContext leaves out.
 */
export async function benchContextTokens(options: ContextTokensOptions): Promise<ContextTokensBench> {
  const { sandbox, steps = 60, files = 40, budgets = [CLI_CONTEXT] } = options;
  return withScriptedSessions({ prefix: 'gf-bench-context-', sandbox, steps, files }, async (sessions) => {
    const session = async (name: string, context: ContextLimits) => {
      let sent: readonly number[] = [];
      await sessions.run(name, context, (model) => {
        const recorder = recordTokens(model);
        sent = recorder.sent;
        return recorder.model;
      });
      return { sentTokens: sum(sent), maxRequestTokens: Math.max(...sent) };
    };
    const full = await session('full', { maxTokens: Number.POSITIVE_INFINITY, keepLastToolResults: steps });
    const figures: BudgetFigures[] = [];
    for (const [i, budget] of budgets.entries()) {
      const sent = await session(`budget-${i}`, budget);
      figures.push({ ...budget, ...sent, ratio: sent.sentTokens / full.sentTokens });
    }
    return { steps, files, fullTokens: full.sentTokens, maxFullRequestTokens: full.maxRequestTokens, budgets: figures };
  });
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
