import { describeRefusals } from '../sandbox/describe-refusals.js';
import type { SandboxRunner } from '../sandbox/types.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import { lastLines } from '../agent/tools/command-output.js';
import type { RunState } from './run-state.js';

export type SetupResult = NonNullable<RunState['setup']>;

/**
 * Installs dependencies: the one command that may use the network. Everything it leaves in the
 * tree (node_modules when not ignored, a rewritten lockfile) is set aside: not part of the change.
 */
export async function runSetup(
  deps: { workspace: ObservableWorkspace; sandbox: SandboxRunner; timeoutMs: number; signal?: AbortSignal; egressAllow?: readonly string[] },
  command: string,
): Promise<SetupResult> {
  const { value: r } = await deps.workspace.observe(
    () =>
      deps.sandbox.run({
        command,
        workspace: deps.workspace.root,
        readOnlyBinds: deps.workspace.sandboxBinds,
        network: true,
        ...(deps.egressAllow && deps.egressAllow.length > 0 ? { egressAllow: deps.egressAllow } : {}),
        timeoutMs: deps.timeoutMs,
        ...(deps.signal ? { signal: deps.signal } : {}),
      }),
    'all',
  );
  const outputTail = lastLines(`${r.stdout}\n${r.stderr}`.trim(), 40);
  return { exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, outputTail, ...(r.egress ? { egress: r.egress } : {}) };
}

/** The setup line of the status comment and the CLI: the command, how it ended, what egress refused. */
export function setupSummary(command: string, setup: SetupResult): string {
  const parts = [command.length > 60 ? `${command.slice(0, 59)}…` : command];
  if (setup.timedOut) parts.push('timed out');
  else if (setup.exitCode !== 0) parts.push(`exit ${setup.exitCode ?? 'signal'}`);
  parts.push(`${(setup.durationMs / 1000).toFixed(1)} s`);
  const refused = setup.egress ? describeRefusals(setup.egress) : null;
  if (refused) parts.push(refused);
  return parts.join(' · ');
}

/** What the model is told when setup failed: it may be the very thing to fix. */
export function setupNote(command: string, setup: SetupResult): string | null {
  if (setup.exitCode === 0 && !setup.timedOut) return null;
  const how = setup.timedOut ? 'timed out' : `failed with exit code ${setup.exitCode}`;
  const refused = setup.egress ? describeRefusals(setup.egress) : null;
  const egress = refused ? ` Its network goes only through greenfix's egress proxy (public hosts only): ${refused}.` : '';
  return `Note: the setup command \`${command}\` ${how}.${egress} Its output ended with:\n${setup.outputTail}`;
}
