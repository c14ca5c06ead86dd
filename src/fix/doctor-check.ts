import type { FileOwner } from '../sandbox/ownership.js';
import type { ToolchainPlan } from '../sandbox/toolchains.js';
import type { SandboxRunner } from '../sandbox/types.js';
import type { BaselineSummary } from '../verify/test-evidence.js';
import type { Commands, ObservableWorkspace } from '../workspace/types.js';
import { commandProgram } from '../util/command-program.js';
import { runBaseline } from './baseline-phase.js';
import { runSetup, type SetupResult } from './setup-phase.js';

export type CommandSource = 'configured' | 'detected' | 'none';

export interface DoctorFindings {
  commands: Commands;
  sources: { verify: CommandSource; setup: CommandSource };
  /** Programs the commands start that the sandbox cannot find. */
  missingInSandbox: string[];
  setup: SetupResult | null;
  baseline: BaselineSummary | null;
  /** The end of the test command's output when it did not pass on the base (why: a missing module…); else null. */
  baselineTail: string | null;
  /** Host problems (missing bubblewrap, git, …): each a sentence. */
  hostProblems: string[];
  /** Locally: what of the user's toolchains the sandbox was shown, what it could not find, and what it refused to show. */
  toolchains?: Pick<ToolchainPlan, 'visible' | 'notFound' | 'refused'>;
}

export interface DoctorDeps {
  workspace: ObservableWorkspace;
  sandbox: SandboxRunner;
  /** Who the sandbox runs as (setup's files are theirs); null: the current user. */
  owner: FileOwner | null;
  setupTimeoutMs: number;
  testTimeoutMs: number;
  cacheDir: string;
  /** The repository's `network.allow` for setup (the app); none locally. */
  egressAllow?: readonly string[];
  /** The setup secrets the repository was granted (the app's `/agent doctor`), as a fix's setup gets them. */
  setupSecrets?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** Each program the commands start, looked up with the command's own `VAR=…` prefix (its PATH). */
async function missingPrograms(deps: DoctorDeps, commands: Commands): Promise<string[]> {
  const started = [commands.setup, commands.verify].flatMap((c) => {
    const p = c ? commandProgram(c) : null;
    return p ? [p] : [];
  });
  const checks = [...new Set(started.map((p) => `${[...p.assignments, 'command', '-v', p.program].join(' ')} >/dev/null 2>&1 || echo ${p.program}`))];
  if (checks.length === 0) return [];
  const programs = started.map((p) => p.program);
  const r = await deps.sandbox.run({
    command: checks.join('\n'),
    workspace: deps.workspace.root,
    timeoutMs: 30_000,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  return [...new Set(r.stdout.split('\n').map((l) => l.trim()).filter((l) => programs.includes(l)))];
}

/**
 * The readiness check (`greenfix doctor`): the commands, whether the sandbox has their programs,
 * setup (with network, as a fix does) and the verify command on the base, timed — the same steps a
 * fix takes before the model starts, so what works here works in a job.
 */
export async function runDoctor(deps: DoctorDeps, commands: Commands, sources: DoctorFindings['sources'], hostProblems: string[]): Promise<DoctorFindings> {
  const findings: DoctorFindings = { commands, sources, missingInSandbox: [], setup: null, baseline: null, baselineTail: null, hostProblems };
  if (hostProblems.length > 0) return findings;
  findings.missingInSandbox = await missingPrograms(deps, commands);
  const signal = deps.signal ? { signal: deps.signal } : {};
  const egressAllow = deps.egressAllow ?? [];
  let dependencies = 'none';
  if (commands.setup) {
    const secrets = deps.setupSecrets ? { secrets: deps.setupSecrets } : {};
    findings.setup = await runSetup({ workspace: deps.workspace, sandbox: deps.sandbox, timeoutMs: deps.setupTimeoutMs, egressAllow, ...secrets, ...signal }, commands.setup);
    // As a fix does: the baseline is keyed on the state setup left, so the next fix can reuse it.
    dependencies = (await deps.workspace.keepSetupState(deps.owner)).digest;
  }
  if (commands.verify) {
    const b = await runBaseline({ workspace: deps.workspace, sandbox: deps.sandbox, timeoutMs: deps.testTimeoutMs, cacheDir: deps.cacheDir, ...signal }, { verify: commands.verify, setup: commands.setup, dependencies }, true);
    findings.baseline = b.summary;
    if (b.summary.exitCode !== 0 || b.summary.timedOut) findings.baselineTail = b.outputTail;
  }
  return findings;
}
