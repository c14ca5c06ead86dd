import { artefactNote } from '../agent/tools/artefact-note.js';
import type { BaselineSummary } from '../verify/test-evidence.js';
import type { VerifyMode } from '../verify/verify-policy.js';

/** What the model's first message says about the base: what already fails, and what counts as done. */
export function baselineNote(line: string, mode: VerifyMode, summary: BaselineSummary | null, artefacts: readonly string[] = []): string {
  const red = summary !== null && (summary.exitCode !== 0 || summary.timedOut || (summary.totals?.failed ?? 0) > 0);
  const rule =
    mode === 'no_new_failures'
      ? 'This repository uses verify_mode no_new_failures: tests that already fail on the base may keep failing, but nothing that passes there may break, and at least one failing (or new) test must pass.'
      : red
        ? 'This repository uses verify_mode all_pass: the whole test command must pass, including what already fails on the base.'
        : null;
  // What that run wrote is said here, once: the agent's own test runs will not say it again.
  return [`Before you changed anything, greenfix ran the test command on the base tree — ${line}.`, rule].filter(Boolean).join(' ') + artefactNote([...artefacts]);
}
