import { refusedToolchainLine } from '../sandbox/toolchains.js';
import { baselineSentence } from '../verify/test-evidence.js';
import type { DoctorFindings } from './doctor-check.js';

export interface DoctorVerdict {
  ready: boolean;
  /** The one line: whether greenfix can work on this repository, and what to do if not. */
  line: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Whether greenfix can work here: a test command that runs, setup that succeeds, a readable base. */
export function doctorVerdict(f: DoctorFindings): DoctorVerdict {
  if (f.hostProblems.length > 0) return { ready: false, line: `greenfix cannot run on this machine: ${f.hostProblems.join('; ')}` };
  if (!f.commands.verify) return { ready: false, line: 'greenfix cannot work on this repository yet: no test command was detected — set `verify:` in .github/greenfix.yml (or --verify)' };
  if (f.missingInSandbox.length > 0) {
    const refused = f.toolchains?.refused[0];
    const how = refused
      ? `your toolchain ${refused.path} was found but not shown: ${refused.why}`
      : `install it on the host (/usr)${f.toolchains ? ' or with a version manager on your PATH (pyenv, rustup, nvm…)' : ''}, or add its directory to GREENFIX_SANDBOX_RO_PATHS`;
    return { ready: false, line: `greenfix cannot work on this repository yet: the sandbox has no ${f.missingInSandbox.join(', ')} — ${how}` };
  }
  if (f.setup && (f.setup.timedOut || f.setup.exitCode !== 0)) {
    return { ready: false, line: `greenfix cannot work on this repository yet: the setup command ${f.setup.timedOut ? 'timed out' : `failed (exit code ${f.setup.exitCode})`} — fix it or set \`setup:\` (setup may only reach public hosts)` };
  }
  const b = f.baseline;
  if (!b) return { ready: false, line: 'greenfix cannot work on this repository yet: the test command did not run' };
  if (b.timedOut) return { ready: false, line: 'greenfix cannot work on this repository yet: the test command timed out on the base' };
  if (b.exitCode === 0) return { ready: true, line: `greenfix can work on this repository: the tests pass on the base${b.totals ? ` (${b.totals.total} tests, ${b.format})` : ' (exit code only: no per-test report)'}` };
  if (b.totals && b.totals.failed > 0) {
    return { ready: true, line: `greenfix can work on this repository with \`verify_mode: no_new_failures\`: ${b.totals.failed} of ${b.totals.total} tests already fail on the base (under all_pass no fix could pass)` };
  }
  return { ready: false, line: `greenfix cannot work on this repository yet: the test command fails on the base (exit code ${b.exitCode}) and its output has no report greenfix can read — fix the base or use a runner format greenfix reads` };
}

/** What of the user's own toolchains the sandbox sees (local doctor only). */
function toolchainLines(t: NonNullable<DoctorFindings['toolchains']>): string[] {
  const lines = [
    t.visible.length > 0
      ? `toolchains shown read-only: ${t.visible.map((v) => `${v.path} (${v.what})`).join(', ')}`
      : `toolchains shown read-only: none${t.refused.length > 0 ? '' : " (the commands' programs are the system's)"}`,
  ];
  if (t.notFound.length > 0) lines.push(`toolchains not found on your PATH: ${t.notFound.join(', ')}`);
  for (const r of t.refused) lines.push(refusedToolchainLine(r));
  return lines;
}

/** The report, one fact a line (CLI stderr, or the `/agent doctor` comment's list). */
export function doctorLines(f: DoctorFindings, where: string): string[] {
  const lines = [
    `verify: ${f.commands.verify ?? '(none)'} (${f.sources.verify})`,
    `setup: ${f.commands.setup ?? '(none)'} (${f.sources.setup})`,
  ];
  for (const p of f.hostProblems) lines.push(`host: ${p}`);
  if (f.toolchains) lines.push(...toolchainLines(f.toolchains));
  if (f.missingInSandbox.length > 0) lines.push(`sandbox: not found: ${f.missingInSandbox.join(', ')}`);
  if (f.setup) lines.push(`setup ran: ${f.setup.timedOut ? 'timed out' : `exit code ${f.setup.exitCode}`} in ${seconds(f.setup.durationMs)}`);
  if (f.baseline) {
    lines.push(`tests ran: exit code ${f.baseline.exitCode ?? 'none'} in ${seconds(f.baseline.durationMs)}`);
    lines.push(`report format: ${f.baseline.format ?? 'none greenfix can read (exit code only)'}`);
    lines.push(`baseline ${baselineSentence(f.baseline, where)}`);
  }
  return lines;
}
