import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContextLimits } from '../src/agent/context.js';
import { ScriptedModel } from '../src/model/scripted-model.js';
import type { Sandbox } from '../src/sandbox/types.js';
import { benchWorktree } from './bench-worktree.js';
import { CLI_CONTEXT, runScripted } from './scripted-run.js';
import { sessionScript } from './session-script.js';
import { makeSourceRepo, VERIFY_COMMAND } from './source-repo.js';
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
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'gf-bench-context-')));
  try {
    await chmod(dir, 0o711); // the sandbox uid must pass through to the worktrees
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    const paths = await makeSourceRepo(repo, { files, minLines: 300, maxLines: 600 });
    const turns = sessionScript(paths, steps);
    const session = async (name: string, context: ContextLimits) => {
      const runDir = join(dir, name);
      mkdirSync(runDir);
      const workspace = await benchWorktree(repo, join(runDir, 'worktree'), join(runDir, 'state'));
      const recorder = recordTokens(new ScriptedModel(turns));
      const outcome = await runScripted({ model: recorder.model, workspace, sandbox, context, verifyCommand: VERIFY_COMMAND, dir: runDir, maxSteps: steps + 1 });
      if (outcome.status !== 'verified' || outcome.steps !== steps) {
        throw new Error(`bench session "${name}" ended ${outcome.status} after ${outcome.steps} of ${steps} steps: ${outcome.reason}`);
      }
      return { sentTokens: sum(recorder.sent), maxRequestTokens: Math.max(...recorder.sent) };
    };
    const full = await session('full', { maxTokens: Number.POSITIVE_INFINITY, keepLastToolResults: steps });
    const figures: BudgetFigures[] = [];
    for (const [i, budget] of budgets.entries()) {
      const sent = await session(`budget-${i}`, budget);
      figures.push({ ...budget, ...sent, ratio: sent.sentTokens / full.sentTokens });
    }
    return { steps, files, fullTokens: full.sentTokens, maxFullRequestTokens: full.maxRequestTokens, budgets: figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
