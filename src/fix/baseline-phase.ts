import { closeSync } from 'node:fs';
import { collectReportFiles } from '../agent/tools/report-files.js';
import { claimScratchFile } from '../agent/tools/scratch.js';
import type { SandboxRunner } from '../sandbox/types.js';
import { openRegularFile, readFd } from '../util/regular-file.js';
import { parseReport } from '../verify/parse-report.js';
import { summarizeBaseline } from '../verify/test-evidence.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import { baselineKey, readBaseline, writeBaseline, type BaselineEntry } from './baseline-cache.js';

const REPORT_READ_BYTES = 16 * 1024 * 1024;

export interface BaselineDeps {
  workspace: ObservableWorkspace;
  sandbox: SandboxRunner;
  timeoutMs: number;
  /** Host-owned cache directory (baseline-cache.ts). */
  cacheDir: string;
  signal?: AbortSignal;
}

/** `artefacts`: paths the baseline run wrote first (test artefacts), for the model's first message. */
export type BaselineResult = BaselineEntry & { cached: boolean; artefacts: string[] };

function readOutput(file: string): string {
  try {
    const fd = openRegularFile(file, 'read');
    try {
      return readFd(fd, REPORT_READ_BYTES).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * The verify command on the base tree, after setup and before the agent changes anything: what
 * fails already. Runs in the sandbox without network, like run_tests; what the run creates is set
 * aside as test artefacts (observe 'tests'). Cached per (base tree, verify, setup), so a retry or a second issue
 * on the same commit does not pay again; `fresh` (the readiness check) runs it anyway and refreshes the cache.
 */
export async function runBaseline(deps: BaselineDeps, commands: { verify: string; setup: string | null }, fresh = false): Promise<BaselineResult> {
  const tree = await deps.workspace.treeHash();
  const key = baselineKey(tree, commands.verify, commands.setup);
  const hit = fresh ? null : readBaseline(deps.cacheDir, key);
  if (hit) return { ...hit, cached: true, artefacts: [] };
  const outputFile = claimScratchFile(deps.workspace.scratchDir, 'baseline');
  const observed = await deps.workspace.observe(
    () =>
      deps.sandbox.run({
        command: commands.verify,
        workspace: deps.workspace.root,
        timeoutMs: deps.timeoutMs,
        outputFile,
        ...(deps.signal ? { signal: deps.signal } : {}),
      }),
    'tests',
  );
  deps.signal?.throwIfAborted();
  const r = observed.value;
  const output = readOutput(outputFile) || `${r.stdout}${r.stderr}`;
  let report = parseReport(output);
  if (!report?.listsPassing && !r.timedOut && !r.aborted) {
    const files = await collectReportFiles({ workspace: deps.workspace, sandbox: deps.sandbox, timeoutMs: 30_000, ...(deps.signal ? { signal: deps.signal } : {}) });
    if (files.length > 0) report = parseReport(output, files);
  }
  const entry: BaselineEntry = { key, summary: summarizeBaseline(commands.verify, r, report), report };
  // A run cut short by a timeout says nothing reliable about the base: not cached.
  if (!r.timedOut && !r.aborted) writeBaseline(deps.cacheDir, entry);
  return { ...entry, cached: false, artefacts: observed.artefacts?.first ?? [] };
}
