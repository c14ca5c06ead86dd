import { closeSync } from 'node:fs';
import type { SandboxRunner } from '../../sandbox/types.js';
import { openRegularFile, readFd } from '../../util/regular-file.js';
import type { ReportFile } from '../../verify/test-report.js';
import type { ObservableWorkspace } from '../../workspace/types.js';
import { claimScratchFile } from './scratch.js';

const MARKER = '@@greenfix-report-file@@';
const MAX_FILES = 500;
const MAX_FILE_BYTES = 2_000_000;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/**
 * JUnit XML the test run wrote (maven surefire/failsafe, gradle, `--junitxml=junit.xml`), read by a
 * command in the sandbox — the host never opens a path the sandbox could have pointed elsewhere.
 * Symlinks are skipped; sizes and counts are capped.
 */
const SCRIPT = [
  `for f in $(find target/surefire-reports target/failsafe-reports build/test-results -maxdepth 4 -type f -name 'TEST-*.xml' 2>/dev/null | sort | head -n ${MAX_FILES}) junit.xml report.xml test-results.xml; do`,
  `  if [ -f "$f" ] && [ ! -L "$f" ]; then printf '\\n${MARKER} %s\\n' "$f"; head -c ${MAX_FILE_BYTES} "$f"; fi`,
  'done; true',
].join('\n');

export async function collectReportFiles(deps: { workspace: ObservableWorkspace; sandbox: SandboxRunner; timeoutMs: number; signal?: AbortSignal }): Promise<ReportFile[]> {
  const outputFile = claimScratchFile(deps.workspace.scratchDir, 'report-files');
  const r = await deps.sandbox.run({ command: SCRIPT, workspace: deps.workspace.root, timeoutMs: deps.timeoutMs, outputFile, ...(deps.signal ? { signal: deps.signal } : {}) });
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
  const parts = text.split(`\n${MARKER} `);
  for (const part of parts.slice(1)) {
    const nl = part.indexOf('\n');
    if (nl < 0) continue;
    files.push({ path: part.slice(0, nl), content: part.slice(nl + 1) });
  }
  return files;
}
