import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { readJournal } from '../agent/journal.js';
import { runTestCommand } from '../agent/test-run.js';
import { baselineCacheDir } from '../fix/baseline-cache.js';
import { FIX_TOOL_LIMITS } from '../fix/defaults.js';
import type { FixEvent } from '../fix/fix-event.js';
import { fixCommands, type CommandChoice, type FixBudgets, type FixInput } from '../fix/fix-input.js';
import type { FixWrappers } from '../fix/fix-wrappers.js';
import { localPublisher } from '../fix/local-publisher.js';
import { runFix, type FixResult } from '../fix/run-fix.js';
import { StateFile } from '../fix/state-file.js';
import { costOf } from '../model/cost.js';
import type { ModelPrice } from '../model/prices.js';
import { ScriptedModel } from '../model/scripted-model.js';
import type { ChatModel } from '../model/types.js';
import type { Sandbox } from '../sandbox/types.js';
import type { VerifyMode } from '../verify/verify-policy.js';
import { addWorktree, removeWorktree } from '../workspace/worktree.js';
import type { EvalInstance } from './eval-instance.js';
import type { EvalRecord } from './eval-record.js';
import { goldScript } from './gold-script.js';
import { checkInstance } from './instance-check.js';
import { commitWithTests, diffOf, patchedFiles } from './instance-git.js';

/** Who answers: a model (the same for every instance), or the gold control (replays each instance's gold change). */
export type EvalModel = { kind: 'model'; model: ChatModel; price: ModelPrice | null } | { kind: 'gold' };

export interface InstanceRunInput {
  instance: EvalInstance;
  /** The local repository (or mirror) that holds the instance's base commit. */
  repo: string;
  /** The setup step's caches for this repository (as `greenfix fix` has them); absent: none. */
  caches?: FixInput['caches'];
  /** The eval's directory: each instance works in `instances/<id>/` there. */
  dir: string;
  model: EvalModel;
  choice: CommandChoice;
  budgets: FixBudgets;
  verifyMode: VerifyMode;
  sandbox: Sandbox;
  wrap: FixWrappers;
  now: () => number;
  onEvent?: (event: FixEvent) => void;
  signal?: AbortSignal;
}

/**
 * One instance through exactly the fix a user gets (fix/run-fix.ts): a worktree at the base with
 * the test change applied, setup, baseline, the agent, the clean-room gate, the verified tree
 * committed on `greenfix-eval/<id>`; then the instance's own check, a test run on the final tree
 * matched against FAIL_TO_PASS and PASS_TO_PASS. An interrupted instance resumes from its state
 * file and journal (no model request is made twice). The gold change never enters the worktree,
 * the task or the journal: only the gold control's script is made from it.
 */
export async function runInstance(input: InstanceRunInput): Promise<EvalRecord> {
  const { instance, repo } = input;
  const home = join(input.dir, 'instances', instance.instance_id);
  for (const d of [join(input.dir, 'instances'), home]) mkdirSync(d, { recursive: true, mode: 0o711 });
  const paths = { worktree: join(home, 'worktree'), journal: join(home, 'journal.jsonl'), state: join(home, 'state.json'), stateDir: join(home, 'index') };
  const started = input.now();
  const modelName = input.model.kind === 'gold' ? 'gold' : input.model.model.name;
  const base = { instance_id: instance.instance_id, model: modelName, gold: instance.patch, task: instance.problem_statement };
  const start = await commitWithTests(repo, instance.base_commit, instance.test_patch, instance.instance_id);
  const state = StateFile.open<never>(paths.state, z.never());
  const workspace = await addWorktree({ repo, path: paths.worktree, ref: state.get('fix')?.baseCommit ?? start, stateDir: paths.stateDir, store: state.workspaceStore() });
  const commands = fixCommands(workspace.root, state.get('fix'), input.choice);
  if (!commands.verify) throw new Error('no test command found on the base: give --test-command');
  const { model, price } = input.model.kind === 'gold' ? { model: new ScriptedModel(goldScript(await patchedFiles(repo, instance.base_commit, instance.patch)), 'gold'), price: null } : input.model;
  const jobSandbox = await input.sandbox.forJob({ workspace: paths.worktree });
  let result: FixResult;
  let check: EvalRecord['check'];
  let tree: string;
  try {
    result = await runFix({
      task: instance.problem_statement,
      workspace,
      commands,
      budgets: input.budgets,
      model,
      price,
      sandbox: jobSandbox,
      publisher: localPublisher(repo, `greenfix-eval/${instance.instance_id}`),
      state: state.fixStore(),
      journal: paths.journal,
      wrap: input.wrap,
      instructions: null,
      ...(input.caches ? { caches: input.caches } : {}),
      now: input.now,
      tests: { mode: input.verifyMode, cacheDir: baselineCacheDir(input.dir), timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000, where: `${instance.base_commit.slice(0, 12)} with the instance's tests` },
      ...(input.onEvent ? { onEvent: input.onEvent } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    tree = result.status === 'published' ? result.published.tree : await workspace.treeHash();
    // The instance's own check: the tests once more on the tree the fix ended with.
    const run = await runTestCommand({
      sandbox: jobSandbox,
      place: { dir: workspace.root, readOnlyBinds: workspace.sandboxBinds, scratchDir: workspace.scratchDir },
      command: commands.verify,
      timeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000,
      label: 'gate',
      ...(input.signal ? { signal: input.signal } : {}),
    });
    check = checkInstance(run.report, run.result.exitCode, { failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS });
  } finally {
    await jobSandbox.release();
  }
  const journal = existsSync(paths.journal) ? readJournal(paths.journal) : [];
  const outcome = result.outcome;
  const cost = costOf(outcome.tokens, model.name, price);
  const record: EvalRecord = {
    ...base,
    status: result.status === 'published' ? (check.passed ? 'resolved' : 'verified_wrong') : 'not_verified',
    agentStatus: outcome.status,
    gate: result.status === 'published' ? null : gateReason(result.reason, journal),
    check,
    error: null,
    costUsd: cost.known ? cost.usd : null,
    tokens: { prompt: outcome.tokens.prompt, completion: outcome.tokens.completion },
    steps: outcome.steps,
    requests: journal.filter((r) => r.type === 'assistant').length,
    wallMs: input.now() - started,
    diff: await diffOf(repo, start, tree),
  };
  return record;
}

/**
 * Once an instance's record is kept: its worktree and private index go, the journal and state stay
 * for `greenfix log`. Not before: an instance resumed after a crash must find the tree it ended with.
 */
export async function removeInstanceWorktree(dir: string, id: string, repo: string): Promise<void> {
  const home = join(dir, 'instances', id);
  if (!existsSync(join(home, 'worktree'))) return;
  await removeWorktree(repo, join(home, 'worktree'));
  rmSync(join(home, 'index'), { recursive: true, force: true });
}

/** Why nothing was published: the fix's reason, and the last test verdict the agent got when it was a refusal. */
function gateReason(reason: string, journal: ReturnType<typeof readJournal>): string {
  const last = journal.filter((r) => r.type === 'tool_end' && r.name === 'run_tests').at(-1);
  if (!last || last.type !== 'tool_end' || last.result.ok) return reason;
  const verdict = last.result.output.split('\n').slice(0, 12).join('\n');
  return `${reason}\nlast test run: ${verdict}`;
}
