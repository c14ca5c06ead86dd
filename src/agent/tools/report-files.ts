import { closeSync, lstatSync, readdirSync, type BigIntStats, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { ReadOnlyBind, SandboxRunner } from '../../sandbox/types.js';
import { openRegularFile, readFd } from '../../util/regular-file.js';
import type { ReportFile } from '../../verify/test-report.js';
import { notRealDirectory } from '../../workspace/real-directory.js';
import { claimScratchFile } from './scratch.js';

const MARKER = '@@greenfix-report-file@@';
const MAX_FILES = 500;
const MAX_FILE_BYTES = 2_000_000;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/** Where a test run may write JUnit XML (maven surefire/failsafe, gradle, `--junitxml=junit.xml`). */
const CANDIDATES = `$(find target/surefire-reports target/failsafe-reports build/test-results -maxdepth 4 -type f -name 'TEST-*.xml' 2>/dev/null | sort | head -n ${MAX_FILES}) junit.xml report.xml test-results.xml`;

/**
 * Prints each candidate as `MARKER <path>`, then its first bytes. Read by a command in the
 * sandbox: the host never opens a path the sandbox could have pointed elsewhere. Symlinks are
 * skipped; sizes and counts are capped.
 */
const SCRIPT = [
  `for f in ${CANDIDATES}; do`,
  `  if [ -f "$f" ] && [ ! -L "$f" ]; then printf '\\n${MARKER} %s\\n' "$f"; head -c ${MAX_FILE_BYTES} -- "$f"; fi`,
  'done; true',
].join('\n');

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

/** The candidates' contents, read in the sandbox. */
async function read(place: ReportFilePlace): Promise<ReportFile[]> {
  const outputFile = claimScratchFile(place.scratchDir, 'report-files');
  const r = await place.sandbox.run({
    command: SCRIPT,
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
  const files: ReportFile[] = [];
  for (const part of text.split(`\n${MARKER} `).slice(1)) {
    const nl = part.indexOf('\n');
    if (nl >= 0) files.push({ path: part.slice(0, nl), content: part.slice(nl + 1) });
  }
  return files;
}

const REPORT_DIRS = ['target/surefire-reports', 'target/failsafe-reports', 'build/test-results'];
const REPORT_NAMES = ['junit.xml', 'report.xml', 'test-results.xml'];
const MAX_DEPTH = 4;

/**
 * The candidate report files under `dir` and their change times (ns), found by the host without
 * opening or following anything (lstat and directory listings only; no sandboxed command runs in
 * `dir` while it looks): a symlink, or a directory reached through one, is no candidate.
 */
function candidates(dir: string): Map<string, bigint> {
  const found = new Map<string, bigint>();
  const file = (rel: string) => {
    const st = lstatOrNull(join(dir, rel));
    if (st?.isFile()) found.set(rel, st.ctimeNs);
  };
  for (const name of REPORT_NAMES) file(name);
  const walk = (rel: string, depth: number): void => {
    if (found.size >= MAX_FILES) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory() && depth < MAX_DEPTH) walk(child, depth + 1);
      else if (entry.isFile() && /^TEST-.*\.xml$/.test(entry.name)) file(child);
    }
  };
  for (const rel of REPORT_DIRS) if (notRealDirectory(dir, rel) === null) walk(rel, 1);
  return found;
}

function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return null;
  }
}

/** The report files as they are before a run: what is there already does not count afterwards. */
export type ReportFilesBefore = ReadonlyMap<string, bigint>;

export function reportFilesBefore(dir: string): ReportFilesBefore {
  return candidates(dir);
}

/**
 * The JUnit XML files this run wrote: new since `before`, or changed since (their change time,
 * which nobody can set, moved). A report that was there before the run — committed, planted in an
 * ignored directory, left by an earlier run — is not this run's and is named in `ignored`. Only when
 * the run wrote one does a sandboxed command read them (the host never opens them).
 */
export async function collectReportFiles(place: ReportFilePlace, before: ReportFilesBefore): Promise<{ files: ReportFile[]; ignored: string[] }> {
  const after = candidates(place.dir);
  const ignored = [...after].filter(([path, changed]) => before.get(path) === changed).map(([path]) => path);
  const written = new Set([...after.keys()].filter((path) => !ignored.includes(path)));
  if (written.size === 0) return { files: [], ignored };
  const files = (await read(place)).filter((f) => written.has(f.path));
  return { files, ignored };
}
