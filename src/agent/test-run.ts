import { closeSync } from 'node:fs';
import type { ReadOnlyBind, SandboxResult, SandboxRunner } from '../sandbox/types.js';
import { lastLines } from '../util/clip.js';
import { openRegularFile, readFd } from '../util/regular-file.js';
import type { TestReport } from '../verify/test-report.js';
import { collectReportFiles, reportFilesBefore, type ReportFilePlace } from './tools/report-files.js';
import { claimScratchFile } from './tools/scratch.js';

/** How much of a test run's output is parsed for a report (a jest --json line can be large). */
const REPORT_READ_BYTES = 16 * 1024 * 1024;
const TAIL_READ_BYTES = 64 * 1024;
const TAIL_LINES = 60;
const REPORT_FILES_TIMEOUT_MS = 30_000;

/** Where a test run happens: the agent's worktree, or a clean room shown at the worktree's path. */
export interface TestPlace {
  dir: string;
  mountAt?: string;
  readOnlyBinds: readonly ReadOnlyBind[];
  /** Host-owned, outside `dir`: the full output goes there. */
  scratchDir: string;
}

export interface TestRunInput {
  sandbox: SandboxRunner;
  place: TestPlace;
  command: string;
  timeoutMs: number;
  /** The scratch file's prefix: `tests` (run_tests), `baseline`, `gate` (the clean room). */
  label: 'tests' | 'baseline' | 'gate';
  signal?: AbortSignal;
}

export interface TestRun {
  result: SandboxResult;
  /** The full (capped) combined output, host-owned. */
  outputFile: string;
  /** The tests the run reported: its output, and JUnit files it wrote itself; null when none is readable. */
  report: TestReport | null;
  /** Report files that were there before the run started, so not counted. */
  ignoredReports: string[];
  /** Set when the report files this run wrote disagree with what the runner printed: a failure. */
  reportConflict?: string;
}

/**
 * The one way greenfix runs a repository's tests (run_tests, the baseline, the clean-room gate):
 * the verify command in the sandbox without network, its full output kept host-side, the report
 * read from what the runner printed and from report files this run wrote — never from one that
 * was there before it started.
 */
export async function runTestCommand(input: TestRunInput): Promise<TestRun> {
  const { place } = input;
  const files: ReportFilePlace = {
    sandbox: input.sandbox,
    dir: place.dir,
    ...(place.mountAt ? { mountAt: place.mountAt } : {}),
    readOnlyBinds: place.readOnlyBinds,
    scratchDir: place.scratchDir,
    timeoutMs: REPORT_FILES_TIMEOUT_MS,
    ...(input.signal ? { signal: input.signal } : {}),
  };
  const before = reportFilesBefore(place.dir);
  const outputFile = claimScratchFile(place.scratchDir, input.label);
  const result = await input.sandbox.run({
    command: input.command,
    workspace: place.dir,
    ...(place.mountAt ? { mountAt: place.mountAt } : {}),
    readOnlyBinds: place.readOnlyBinds,
    timeoutMs: input.timeoutMs,
    outputFile,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const output = readRange(outputFile, false, REPORT_READ_BYTES) ?? `${result.stdout}${result.stderr}`;
  // JUnit XML the run wrote (maven, gradle, pytest --junitxml) is read too, and must agree with the output.
  const written = result.timedOut || result.aborted ? { files: [], ignored: [] } : await collectReportFiles(files, before);
  // The report parsers (one per runner) load at the first test run, not before the model's first request.
  const { readTestReport } = await import('../verify/parse-report.js');
  const reading = readTestReport(output, written.files);
  if (!reading.agree) return { result, outputFile, report: reading.output, ignoredReports: written.ignored, reportConflict: reading.reason };
  return { result, outputFile, report: reading.report, ignoredReports: written.ignored };
}

/** The last lines of a run's combined, in-order output; the captured streams when the file is unreadable. */
export function testOutputTail(run: Pick<TestRun, 'outputFile' | 'result'>, lines = TAIL_LINES): string {
  const text = readRange(run.outputFile, true, TAIL_READ_BYTES);
  return lastLines(text ?? `${run.result.stdout}${run.result.stderr}`, lines);
}

/** The start or end of a host-owned scratch file, opened without following links. */
function readRange(file: string, fromEnd: boolean, max: number): string | null {
  try {
    const fd = openRegularFile(file, 'read');
    let buf: Buffer;
    try {
      buf = readFd(fd, max, fromEnd);
    } finally {
      closeSync(fd);
    }
    return buf.length > 0 ? buf.toString('utf8') : null;
  } catch {
    return null;
  }
}
