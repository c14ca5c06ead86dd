import { closeSync } from 'node:fs';
import type { ReadOnlyBind, SandboxRunner } from '../../sandbox/types.js';
import { openRegularFile, readFd } from '../../util/regular-file.js';
import type { ReportFile } from '../../verify/test-report.js';
import { claimScratchFile } from './scratch.js';

const MARKER = '@@greenfix-report-file@@';
const MAX_FILES = 500;
const MAX_FILE_BYTES = 2_000_000;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/** Where a test run may write JUnit XML (maven surefire/failsafe, gradle, `--junitxml=junit.xml`). */
const CANDIDATES = `$(find target/surefire-reports target/failsafe-reports build/test-results -maxdepth 4 -type f -name 'TEST-*.xml' 2>/dev/null | sort | head -n ${MAX_FILES}) junit.xml report.xml test-results.xml`;

/**
 * Prints each candidate as `MARKER <change time> <path>`, then (with contents) its first bytes.
 * Read by a command in the sandbox: the host never opens a path the sandbox could have pointed
 * elsewhere. Symlinks are skipped; sizes and counts are capped. The change time (ctime, to the
 * nanosecond) cannot be set by anyone: it tells a file the run wrote from one that was there.
 */
function script(contents: boolean): string {
  return [
    `for f in ${CANDIDATES}; do`,
    `  if [ -f "$f" ] && [ ! -L "$f" ]; then printf '\\n${MARKER} %s %s\\n' "$(stat -c %z -- "$f")" "$f";${contents ? ` head -c ${MAX_FILE_BYTES} -- "$f";` : ''} fi`,
    'done; true',
  ].join('\n');
}

export interface ReportFilePlace {
  sandbox: SandboxRunner;
  /** The directory the test run ran in, and where commands see it. */
  dir: string;
  mountAt?: string;
  readOnlyBinds: readonly ReadOnlyBind[];
  scratchDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

interface Listed {
  path: string;
  changed: string;
  content: string;
}

async function list(place: ReportFilePlace, contents: boolean): Promise<Listed[]> {
  const outputFile = claimScratchFile(place.scratchDir, 'report-files');
  const r = await place.sandbox.run({
    command: script(contents),
    workspace: place.dir,
    ...(place.mountAt ? { mountAt: place.mountAt } : {}),
    readOnlyBinds: place.readOnlyBinds,
    timeoutMs: place.timeoutMs,
    outputFile,
    ...(place.signal ? { signal: place.signal } : {}),
  });
  if (r.timedOut || r.aborted) return [];
  let text: string;
  try {
    const fd = openRegularFile(outputFile, 'read');
    try {
      text = readFd(fd, MAX_TOTAL_BYTES).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const files: Listed[] = [];
  for (const part of text.split(`\n${MARKER} `).slice(1)) {
    const nl = part.indexOf('\n');
    if (nl < 0) continue;
    // "<date> <time> <zone> <path>": stat's %z has three space-separated fields.
    const head = part.slice(0, nl).split(' ');
    files.push({ changed: head.slice(0, 3).join(' '), path: head.slice(3).join(' '), content: part.slice(nl + 1) });
  }
  return files;
}

/** The report files as they are before a run: what is there already does not count afterwards. */
export type ReportFilesBefore = ReadonlyMap<string, string>;

export async function reportFilesBefore(place: ReportFilePlace): Promise<ReportFilesBefore> {
  return new Map((await list(place, false)).map((f) => [f.path, f.changed]));
}

/**
 * The JUnit XML files this run wrote: new since `before`, or changed since (ctime). A report that
 * was there before the run — committed, planted in an ignored directory, left by an earlier run —
 * is not this run's and is named in `ignored`.
 */
export async function collectReportFiles(place: ReportFilePlace, before: ReportFilesBefore): Promise<{ files: ReportFile[]; ignored: string[] }> {
  const files: ReportFile[] = [];
  const ignored: string[] = [];
  for (const f of await list(place, true)) {
    if (before.get(f.path) === f.changed) ignored.push(f.path);
    else files.push({ path: f.path, content: f.content });
  }
  return { files, ignored };
}
