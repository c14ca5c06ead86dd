import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ReadOnlyBind } from '../sandbox/types.js';
import type { SetAside } from './set-aside.js';

/**
 * What a GitWorkspace keeps in its state directory (outside the sandbox), so a resumed process
 * sees the same git dir and the same set-aside paths.
 */
export interface WorkspaceState {
  /** Resolved once, before any untrusted code ran; see GitWorkspace for why it is pinned. */
  gitDir: string;
  baseCommit: string;
  setAside: SetAside;
  /** The sandbox's git view (sandbox-git-view.ts), decided once; absent in states of older versions. */
  sandboxBinds?: ReadOnlyBind[];
}

const StateFile = z.object({
  version: z.literal(1),
  gitDir: z.string().min(1),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  setAside: z.record(z.string(), z.string().nullable()),
  sandboxBinds: z.array(z.object({ source: z.string().min(1), target: z.string().min(1) }).strict()).optional(),
});

const FILE = 'workspace.json';

/** Undefined when no state was saved yet; a corrupt file throws (zod), it is never ignored. */
export function loadState(stateDir: string): WorkspaceState | undefined {
  let text: string;
  try {
    text = readFileSync(join(stateDir, FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const parsed = StateFile.parse(JSON.parse(text));
  return {
    gitDir: parsed.gitDir,
    baseCommit: parsed.baseCommit,
    setAside: new Map(Object.entries(parsed.setAside)),
    ...(parsed.sandboxBinds ? { sandboxBinds: parsed.sandboxBinds } : {}),
  };
}

/** Written to a temp file and renamed: a crash leaves the old state or the new, never half. */
export function saveState(stateDir: string, state: WorkspaceState): void {
  mkdirSync(stateDir, { recursive: true });
  const body: z.infer<typeof StateFile> = {
    version: 1,
    gitDir: state.gitDir,
    baseCommit: state.baseCommit,
    setAside: Object.fromEntries(state.setAside),
    ...(state.sandboxBinds ? { sandboxBinds: state.sandboxBinds } : {}),
  };
  const tmp = join(stateDir, `${FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(body, null, 1));
  renameSync(tmp, join(stateDir, FILE));
}
