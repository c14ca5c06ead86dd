import type { TestReport, TestStatus } from './test-report.js';

/** Per test, what the change did: the evidence, and what the verify_mode decides on. */
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
  /**
   * Ran on the base (passed or failed) and did not run after the change: deleted, renamed, or the
   * run stopped early. Named only when the run after lists every test (else: its totals).
   */
  removed: string[];
  /** Ran on the base (passed or failed), skipped after the change. */
  nowSkipped: string[];
  /** Ran after the change in a target the base run never reached (cargo stopped at a failing one): not new. */
  notRunOnBase: string[];
}

export function emptyComparison(): TestComparison {
  return { fixed: [], broken: [], stillFailing: [], newPassing: [], newFailing: [], flaky: [], removed: [], nowSkipped: [], notRunOnBase: [] };
}

function statuses(r: TestReport): Map<string, TestStatus> {
  return new Map(r.tests.map((t) => [t.id, t.status]));
}

/** Whether the base run reached the target of this test of the run after (it may have stopped early). */
function reachedOnBase(base: TestReport, after: TestReport): (id: string) => boolean {
  const ran = base.stoppedEarly ? new Set(base.stoppedEarly.ranTargets) : null;
  if (!ran) return () => true;
  const targets = new Map(after.tests.map((t) => [t.id, t.target]));
  return (id) => {
    const target = targets.get(id);
    return target === undefined || ran.has(target);
  };
}

/**
 * base → after, per test id. When a report lists only failures (a summary format), a test absent
 * from it counts as passing only if the run's total did not drop; a failure the base did not list
 * counts as broken (it passed there, or is new: either way not allowed to go unnoticed).
 * A test skipped on the base is not compared (skipped on both sides, or gone, is not news).
 * `rerun`: the same command once more on the same tree; a broken test that passes there is flaky.
 */
export function compareReports(base: TestReport, after: TestReport, rerun?: TestReport | null): TestComparison {
  const b = statuses(base);
  const a = statuses(after);
  const c = emptyComparison();
  const afterComplete = after.listsPassing;
  const noneDropped = after.totals.total >= base.totals.total;
  for (const [id, was] of b) {
    if (was === 'skipped') continue;
    const now = a.get(id) ?? (afterComplete ? undefined : noneDropped ? 'passed' : undefined);
    if (now === undefined) {
      if (afterComplete) c.removed.push(id);
    } else if (now === 'skipped') c.nowSkipped.push(id);
    else if (was === 'failed') (now === 'passed' ? c.fixed : c.stillFailing).push(id);
    else if (now === 'failed') c.broken.push(id);
  }
  const reached = reachedOnBase(base, after);
  for (const [id, now] of a) {
    if (b.has(id)) continue;
    if (!reached(id)) c.notRunOnBase.push(id);
    else if (!base.listsPassing && now === 'failed') c.broken.push(id);
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
