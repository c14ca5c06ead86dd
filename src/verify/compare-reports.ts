import type { TestReport, TestStatus } from './test-report.js';

/** Per test, what the change did: the evidence, and what `no_new_failures` decides on. */
export interface TestComparison {
  /** Failed on the base, pass now. */
  fixed: string[];
  /** Passed on the base, fail now (and failed again when rerun). Must be empty. */
  broken: string[];
  stillFailing: string[];
  newPassing: string[];
  newFailing: string[];
  /** Passed on the base, failed after the change, passed when rerun: neither fixed nor broken. */
  flaky: string[];
  /** Passed on the base and did not run after the change (deleted, renamed, or the run stopped early). */
  missing: string[];
}

function statuses(r: TestReport): Map<string, TestStatus> {
  return new Map(r.tests.map((t) => [t.id, t.status]));
}

/**
 * base → after, per test id. When a report lists only failures (a summary format), a test absent
 * from it counts as passing only if the run's total did not drop; a failure the base did not list
 * counts as broken (it passed there, or is new: either way not allowed to go unnoticed).
 * `rerun`: the same command once more on the same tree; a broken test that passes there is flaky.
 */
export function compareReports(base: TestReport, after: TestReport, rerun?: TestReport | null): TestComparison {
  const b = statuses(base);
  const a = statuses(after);
  const c: TestComparison = { fixed: [], broken: [], stillFailing: [], newPassing: [], newFailing: [], flaky: [], missing: [] };
  const afterComplete = after.listsPassing;
  const noneDropped = after.totals.total >= base.totals.total;
  for (const [id, was] of b) {
    const now = a.get(id) ?? (afterComplete ? undefined : noneDropped ? 'passed' : undefined);
    if (was === 'failed') {
      if (now === 'passed') c.fixed.push(id);
      else if (now === 'failed') c.stillFailing.push(id);
    } else if (was === 'passed') {
      if (now === 'failed') c.broken.push(id);
      else if (now === undefined) c.missing.push(id);
    }
  }
  for (const [id, now] of a) {
    if (b.has(id)) continue;
    if (!base.listsPassing && now === 'failed') c.broken.push(id);
    else if (now === 'passed') c.newPassing.push(id);
    else if (now === 'failed') c.newFailing.push(id);
  }
  if (rerun) {
    const r = statuses(rerun);
    const passesOnRerun = (id: string) => r.get(id) === 'passed' || (!rerun.listsPassing && !r.has(id) && rerun.totals.total >= after.totals.total);
    c.flaky = c.broken.filter(passesOnRerun);
    c.broken = c.broken.filter((id) => !c.flaky.includes(id));
  }
  return c;
}

/** True when something the base passed is broken or gone: the one thing evidence must never hide. */
export function hasRegressions(c: TestComparison): boolean {
  return c.broken.length > 0 || c.missing.length > 0;
}
