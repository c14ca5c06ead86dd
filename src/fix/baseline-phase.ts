import { runTestCommand, testOutputTail } from '../agent/test-run.js';
import type { SandboxRunner } from '../sandbox/types.js';
import { summarizeBaseline } from '../verify/test-evidence.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import { baselineKey, readBaseline, writeBaseline, type BaselineEntry } from './baseline-cache.js';

/** Lines of the baseline's output kept for the readiness check: enough for a traceback's end. */
const OUTPUT_TAIL_LINES = 40;

export interface BaselineDeps {
  workspace: ObservableWorkspace;
  sandbox: SandboxRunner;
  timeoutMs: number;
  /** Host-owned cache directory (baseline-cache.ts). */
  cacheDir: string;
  signal?: AbortSignal;
}

/**
 * `artefacts`: paths the baseline run wrote first (test artefacts), for the model's first message;
 * `outputTail`: the end of this run's output (null when read from the cache), for the readiness check.
 */
export type BaselineResult = BaselineEntry & { cached: boolean; artefacts: string[]; outputTail: string | null };

/**
 * The verify command on the base tree, after setup and before the agent changes anything: what
 * fails already. The same test run as run_tests' (agent/test-run.ts), in the worktree; what the run creates is set
 * aside as test artefacts (observe 'tests'). Cached per (base tree, verify, setup), so a retry or a second issue
 * on the same commit and dependency state does not pay again; `fresh` (the readiness check) runs it anyway and refreshes the cache.
 */
export async function runBaseline(deps: BaselineDeps, commands: { verify: string; setup: string | null; dependencies: string }, fresh = false): Promise<BaselineResult> {
  const tree = await deps.workspace.treeHash();
  const key = baselineKey(tree, commands.verify, commands.setup, commands.dependencies, deps.sandbox.image?.digest ?? null);
  const hit = fresh ? null : readBaseline(deps.cacheDir, key);
  if (hit) return { ...hit, cached: true, artefacts: [], outputTail: null };
  const observed = await deps.workspace.observe(
    () =>
      runTestCommand({
        sandbox: deps.sandbox,
        place: { dir: deps.workspace.root, readOnlyBinds: deps.workspace.sandboxBinds, scratchDir: deps.workspace.scratchDir },
        command: commands.verify,
        timeoutMs: deps.timeoutMs,
        label: 'baseline',
        ...(deps.signal ? { signal: deps.signal } : {}),
      }),
    'tests',
  );
  deps.signal?.throwIfAborted();
  const { result: r, report } = observed.value;
  const outputTail = testOutputTail(observed.value, OUTPUT_TAIL_LINES);
  const entry: BaselineEntry = { key, summary: summarizeBaseline(commands.verify, r, report), report };
  // A run cut short by a timeout says nothing reliable about the base: not cached.
  if (!r.timedOut && !r.aborted) writeBaseline(deps.cacheDir, entry);
  return { ...entry, cached: false, artefacts: observed.artefacts?.first ?? [], outputTail };
}
