import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportFile, TestReport } from '../../src/verify/test-report.js';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'reports');

/** A captured runner output under test/fixtures/reports/<runner>/. */
export const readFixture = (runner: string, file: string): string => readFileSync(join(ROOT, runner, file), 'utf8');

/** Every `.xml` a runner wrote, as the report files of its run. */
export function xmlFixtures(runner: string): ReportFile[] {
  return readdirSync(join(ROOT, runner))
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => ({ path: f, content: readFixture(runner, f) }));
}

/** `p:id` / `f:id` / `s:id`, sorted: the whole per-test picture in one comparable list. */
export function picture(r: TestReport | null): string[] {
  if (!r) throw new Error('no report');
  return r.tests.map((t) => `${t.status[0]}:${t.id}`).sort();
}
