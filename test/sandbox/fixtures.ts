import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import type { TempDirs } from '../support/temp-dir.js';

export const isRoot = process.getuid?.() === 0;

/** A workspace the sandbox uid owns, as the workspace module will prepare it (removed with `temp`). */
export async function sandboxWorkspace(temp: TempDirs): Promise<string> {
  const dir = temp.make('greenfix-ws-');
  chmodSync(dir, 0o755);
  await prepareWorkspaceOwnership(dir, sandboxFileOwner());
  return dir;
}

/** Pids of live processes whose command line contains `marker` (zombies have an empty cmdline). */
export function processesMatching(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) found.push(Number(name));
    } catch {
      /* exited while we looked */
    }
  }
  return found;
}

/** Resolves once `condition` holds, checking every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
