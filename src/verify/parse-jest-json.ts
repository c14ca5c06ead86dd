import { ReportBuilder, cleanLines } from './report-builder.js';
import type { TestReport, TestStatus } from './test-report.js';

interface Assertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
}
interface FileResult {
  name?: unknown;
  status?: unknown;
  assertionResults?: unknown;
}

function statusOf(s: unknown): TestStatus {
  if (s === 'passed') return 'passed';
  if (s === 'failed') return 'failed';
  return 'skipped'; // pending, todo, skipped, disabled, focused-away
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The JSON object a runner printed on one line of the combined output (stderr may surround it). */
function findJson(output: string): Record<string, unknown> | null {
  for (const line of cleanLines(output)) {
    const t = line.trim();
    if (!t.startsWith('{"num') || !t.includes('"testResults"')) continue;
    try {
      const v: unknown = JSON.parse(t);
      if (v && typeof v === 'object' && Array.isArray((v as { testResults?: unknown }).testResults)) return v as Record<string, unknown>;
    } catch {
      /* not the report: keep looking */
    }
  }
  return null;
}

function commonDir(files: string[]): string {
  if (files.length === 0) return '';
  const parts = files.map((f) => f.split('/').slice(0, -1));
  const first = parts[0] ?? [];
  let n = first.length;
  for (const p of parts) while (n > 0 && p.slice(0, n).join('/') !== first.slice(0, n).join('/')) n -= 1;
  return first.slice(0, n).join('/');
}

/**
 * `jest --json` and `vitest run --reporter=json`: one object with `testResults[].assertionResults[]`
 * (`ancestorTitles` + `title`). A test file that failed to run (syntax error, missing module) has no
 * assertions: it is one failed entry named after the file.
 */
export function parseJestJson(output: string): TestReport | null {
  const json = findJson(output);
  if (!json) return null;
  const files = (json.testResults as unknown[]).filter((f): f is FileResult => !!f && typeof f === 'object');
  const root = commonDir(files.map((f) => (typeof f.name === 'string' ? f.name : '')));
  const vitest = files.some((f) => Array.isArray(f.assertionResults) && (f.assertionResults as Assertion[]).some((a) => a && typeof a === 'object' && 'meta' in a));
  const builder = new ReportBuilder();
  for (const file of files) {
    const assertions = Array.isArray(file.assertionResults) ? (file.assertionResults as Assertion[]) : [];
    for (const a of assertions) {
      if (!a || typeof a !== 'object' || typeof a.title !== 'string') continue;
      builder.add([...strings(a.ancestorTitles), a.title], statusOf(a.status));
    }
    if (assertions.length === 0 && file.status === 'failed' && typeof file.name === 'string') {
      const rel = root && file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
      builder.addId(`${rel} (failed to run)`, 'failed');
    }
  }
  if (builder.size === 0 && files.length === 0) return null;
  return builder.build(vitest ? 'vitest --reporter=json' : 'jest --json', true);
}
