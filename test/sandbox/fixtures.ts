import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareWorkspaceOwnership, sandboxFileOwner } from '../../src/sandbox/ownership.js';

export const isRoot = process.getuid?.() === 0;

/** Temp directories made by a test file; removed in afterEach/afterAll. */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** A workspace the sandbox uid owns, as the workspace module will prepare it. */
  async workspace(): Promise<string> {
    const dir = this.make('greenfix-ws-');
    chmodSync(dir, 0o755);
    await prepareWorkspaceOwnership(dir, sandboxFileOwner());
    return dir;
  }

  removeAll(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
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
