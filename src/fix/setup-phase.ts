import type { Sandbox } from '../sandbox/types.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import { lastLines } from '../agent/tools/command-output.js';
import type { RunState } from './run-state.js';

export type SetupResult = NonNullable<RunState['setup']>;

/**
 * Installs dependencies: the one command that may use the network. Everything it leaves in the
 * tree (node_modules when not ignored, a rewritten lockfile) is set aside: not part of the change.
 */
export async function runSetup(
  deps: { workspace: ObservableWorkspace; sandbox: Sandbox; timeoutMs: number; signal?: AbortSignal },
  command: string,
): Promise<SetupResult> {
  const { value: r } = await deps.workspace.observe(
    () =>
      deps.sandbox.run({
        command,
        workspace: deps.workspace.root,
        readOnlyBinds: deps.workspace.sandboxBinds,
        network: true,
        timeoutMs: deps.timeoutMs,
        ...(deps.signal ? { signal: deps.signal } : {}),
      }),
    'all',
  );
  return { exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, outputTail: lastLines(`${r.stdout}\n${r.stderr}`.trim(), 40) };
}

/** What the model is told when setup failed: it may be the very thing to fix. */
export function setupNote(command: string, setup: SetupResult): string | null {
  if (setup.exitCode === 0 && !setup.timedOut) return null;
  const how = setup.timedOut ? 'timed out' : `failed with exit code ${setup.exitCode}`;
  return `Note: the setup command \`${command}\` ${how}. Its output ended with:\n${setup.outputTail}`;
}
