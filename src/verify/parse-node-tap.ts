import { ReportBuilder, cleanLines, indentOf } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

const RESULT = /^(not ok|ok)\s+\d+(?:\s+-\s+(.*?))?(?:\s+#\s+(SKIP|TODO)\b.*)?$/i;

function unescapeTap(name: string): string {
  return name.replace(/\\(.)/g, '$1');
}

interface Entry {
  level: number;
  path: string[];
  status: TestStatus;
  suite: boolean;
}

/**
 * node's test runner, TAP reporter (`node --test --test-reporter=tap`; the default when piped on
 * node 18/20): `# Subtest: name` opens a level (4 spaces each), `ok`/`not ok` closes it. Suites —
 * `type: 'suite'` in the YAML block, or anything that had results nested inside — are not tests.
 */
export function parseNodeTap(output: string): TestReport | null {
  const lines = cleanLines(output);
  if (!lines.some((l) => /^TAP version \d+/.test(l.trim())) && !lines.some((l) => /^\s*# Subtest: /.test(l))) return null;
  const entries: Entry[] = [];
  const opened: string[] = [];
  let inYaml = -1;
  for (const raw of lines) {
    const level = Math.floor(indentOf(raw) / 4);
    const line = raw.trim();
    if (inYaml >= 0) {
      if (line === '...' && indentOf(raw) <= inYaml + 2) inYaml = -1;
      else if (/^type:\s*'suite'/.test(line)) {
        const last = entries[entries.length - 1];
        if (last) last.suite = true;
      }
      continue;
    }
    const subtest = /^# Subtest: (.*)$/.exec(line);
    if (subtest) {
      opened[level] = unescapeTap(subtest[1] ?? '');
      opened.length = level + 1;
      continue;
    }
    const m = RESULT.exec(line);
    if (!m) {
      if (line === '---') inYaml = indentOf(raw);
      continue;
    }
    const directive = (m[3] ?? '').toUpperCase();
    const status: TestStatus = directive === 'SKIP' || directive === 'TODO' ? 'skipped' : m[1] === 'ok' ? 'passed' : 'failed';
    const hadChildren = entries.length > 0 && (entries[entries.length - 1]?.level ?? 0) > level;
    const name = unescapeTap(m[2] ?? opened[level] ?? '');
    entries.push({ level, path: [...opened.slice(0, level), name], status, suite: hadChildren });
  }
  if (entries.length === 0) return null;
  const builder = new ReportBuilder();
  for (const e of entries) if (!e.suite) builder.add(e.path, e.status);
  return builder.size > 0 ? builder.build('node --test (TAP)', true) : null;
}
