import { errorText } from '../util/error-text.js';
import type { EvalRecord } from './eval-record.js';
import { EvalState } from './eval-state.js';
import { removeInstanceWorktree, runInstance, type InstanceRunInput } from './run-instance.js';

export interface EvalRunInput extends Omit<InstanceRunInput, 'instance' | 'repo' | 'caches' | 'onEvent'> {
  /** Each instance with the local repository (or mirror) that holds its base commit, and that repository's setup caches. */
  instances: ReadonlyArray<Pick<InstanceRunInput, 'instance' | 'repo' | 'caches'>>;
  /** Instances run at once. */
  concurrency: number;
  /** The eval's total money budget (USD): no instance starts with less than its share left. */
  maxCostUsd?: number;
  /** Hears a line per instance started and finished, and the fix's phases. */
  onProgress?: (line: string) => void;
}

export interface EvalRun {
  /** Every instance's record, in the instances' order (those run before an interruption included). */
  records: EvalRecord[];
  /** Instances not started because the budget was spent. */
  notRun: string[];
}

/** The money left and reserved, shared by the instances running at once. */
interface Spend {
  spent: number;
  reserved: number;
}

/**
 * Runs every instance that has no record yet, `concurrency` at a time, each through runInstance;
 * records each one durably as it ends (eval-state.ts), so after an interruption the same call
 * continues: a recorded instance is not run again, an interrupted one resumes from its journal.
 * Under `maxCostUsd` each instance's own cost budget is its share of what is neither spent nor
 * reserved by the instances running beside it, so the total never crosses it.
 */
export async function runEval(input: EvalRunInput): Promise<EvalRun> {
  const state = EvalState.open(input.dir, input.model.kind === 'gold' ? 'gold' : input.model.model.name);
  const total = input.instances.length;
  const spend: Spend = { spent: input.instances.reduce((sum, { instance }) => sum + (state.get(instance.instance_id)?.costUsd ?? 0), 0), reserved: 0 };
  const queue = input.instances.map((entry, index) => ({ ...entry, index })).filter(({ instance }) => !state.get(instance.instance_id));
  const done = total - queue.length;
  // A crash between an instance's record and its clean-up leaves its worktree: gone now.
  for (const { instance, repo } of input.instances) if (state.get(instance.instance_id)) await removeInstanceWorktree(input.dir, instance.instance_id, repo);
  if (done > 0) input.onProgress?.(`greenfix: eval: ${done} of ${total} instances already done in ${input.dir}: not run again`);
  const notRun: string[] = [];
  let running = 0;

  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { instance, repo, caches, index } = next;
      input.signal?.throwIfAborted();
      const free = input.concurrency - running;
      const share = input.maxCostUsd === undefined ? undefined : (input.maxCostUsd - spend.spent - spend.reserved) / Math.max(free, 1);
      if (share !== undefined && share <= 0.0001) {
        notRun.push(instance.instance_id, ...queue.splice(0).map((q) => q.instance.instance_id));
        input.onProgress?.(`greenfix: eval: the --max-cost budget of $${input.maxCostUsd?.toFixed(2)} is spent: ${notRun.length} instances not run`);
        return;
      }
      running++;
      if (share !== undefined) spend.reserved += share;
      const tag = `[${index + 1}/${total}] ${instance.instance_id}`;
      input.onProgress?.(`greenfix: eval ${tag}: started`);
      try {
        const record = await runOne(input, { instance, repo, ...(caches ? { caches } : {}) }, share, tag);
        state.record(record);
        await removeInstanceWorktree(input.dir, instance.instance_id, repo);
        spend.spent += record.costUsd ?? 0;
        input.onProgress?.(`greenfix: eval ${tag}: ${describe(record)}`);
      } finally {
        running--;
        if (share !== undefined) spend.reserved -= share;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, queue.length)) }, () => worker()));
  const records = input.instances.flatMap(({ instance }) => state.get(instance.instance_id) ?? []);
  return { records, notRun };
}

async function runOne(input: EvalRunInput, entry: Pick<InstanceRunInput, 'instance' | 'repo' | 'caches'>, share: number | undefined, tag: string): Promise<EvalRecord> {
  const { instance } = entry;
  const budgets = share === undefined ? input.budgets : { ...input.budgets, maxCostUsd: Math.min(share, input.budgets.maxCostUsd ?? Infinity) };
  const started = input.now();
  try {
    return await runInstance({
      ...input,
      ...entry,
      budgets,
      onEvent: (event) => {
        if (event.type === 'phase' && event.state === 'running' && event.phase !== 'agent') input.onProgress?.(`greenfix: eval ${tag}: ${event.phase}: ${event.detail.split('\n')[0]}`);
        if (event.type === 'agent' && event.event.type === 'tool') input.onProgress?.(`greenfix: eval ${tag}: step ${event.event.step} ${event.event.ok ? '✓' : '✗'} ${event.event.name}`);
      },
    });
  } catch (error) {
    // An interruption ends the eval (it resumes); a failure of this instance alone (a patch that
    // does not apply, setup failing, a sandbox limit) is its record.
    if (input.signal?.aborted) throw error;
    return {
      instance_id: instance.instance_id,
      status: 'error',
      model: input.model.kind === 'gold' ? 'gold' : input.model.model.name,
      agentStatus: null,
      gate: null,
      check: null,
      error: errorText(error),
      costUsd: null,
      tokens: { prompt: 0, completion: 0 },
      steps: 0,
      requests: 0,
      wallMs: input.now() - started,
      diff: '',
      gold: instance.patch,
      task: instance.problem_statement,
    };
  }
}

/** An instance's end in a few words: "resolved (4 steps, $0.0123, 12 s)". */
export function describe(record: EvalRecord): string {
  const cost = record.costUsd === null ? 'cost unknown' : `$${record.costUsd.toFixed(4)}`;
  const what = record.status === 'error' ? `error: ${record.error ?? ''}` : record.status === 'not_verified' ? `not verified (${record.agentStatus ?? '?'})` : record.status.replace('_', ' ');
  const why = record.status === 'verified_wrong' && record.check ? `: ${record.check.reason}` : '';
  return `${what}${why} (${record.steps} steps, ${cost}, ${(record.wallMs / 1000).toFixed(0)} s)`;
}
