import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { ReadOnlyBind } from '../sandbox/types.js';
import type { SetAside } from './set-aside.js';
import type { Artefacts } from './test-artefacts.js';

/**
 * What a GitWorkspace must find again when a process resumes it: the same git dir and the same
 * set-aside paths.
 */
export interface WorkspaceState {
  /** Resolved once, before any untrusted code ran; see GitWorkspace for why it is pinned. */
  gitDir: string;
  baseCommit: string;
  setAside: SetAside;
  /** Test artefacts (test-artefacts.ts): out of the hash until the agent edits one. */
  artefacts: Artefacts;
  /** The sandbox's git view (sandbox-git-view.ts), decided once; absent in states of older versions. */
  sandboxBinds?: ReadOnlyBind[];
}

/**
 * Where that state is kept. A fix keeps it in its one state file (fix/state-file.ts implements
 * this); workspace/ cannot import fix/, so it sees only this narrow interface.
 */
export interface WorkspaceStateStore {
  /** Undefined when nothing was saved yet; a damaged record throws, it is never ignored. */
  load(): WorkspaceState | undefined;
  save(state: WorkspaceState): void;
}

/** The record as it is serialised (set-aside map as an object). */
export const WorkspaceRecordSchema = z.strictObject({
  gitDir: z.string().min(1),
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
  setAside: z.record(z.string(), z.string().nullable()),
  artefacts: z.array(z.string()).default([]),
  sandboxBinds: z.array(z.strictObject({ source: z.string().min(1), target: z.string().min(1) })).optional(),
});
export type WorkspaceRecord = z.infer<typeof WorkspaceRecordSchema>;

export function toRecord(state: WorkspaceState): WorkspaceRecord {
  return {
    gitDir: state.gitDir,
    baseCommit: state.baseCommit,
    setAside: Object.fromEntries(state.setAside),
    artefacts: [...state.artefacts].sort(),
    ...(state.sandboxBinds ? { sandboxBinds: state.sandboxBinds } : {}),
  };
}

export function fromRecord(record: WorkspaceRecord): WorkspaceState {
  return {
    gitDir: record.gitDir,
    baseCommit: record.baseCommit,
    setAside: new Map(Object.entries(record.setAside)),
    artefacts: new Set(record.artefacts),
    ...(record.sandboxBinds ? { sandboxBinds: record.sandboxBinds } : {}),
  };
}

const StateFile = WorkspaceRecordSchema.extend({ version: z.literal(1) });
const FILE = 'workspace.json';

/**
 * A workspace used on its own (tests, benchmarks): `workspace.json` in its state directory,
 * written to a temp file and renamed. A fix passes its state file's store instead.
 */
export function fileWorkspaceStore(stateDir: string): WorkspaceStateStore {
  return {
    load() {
      let text: string;
      try {
        text = readFileSync(join(stateDir, FILE), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      const { version: _version, ...record } = StateFile.parse(JSON.parse(text));
      return fromRecord(record);
    },
    save(state) {
      mkdirSync(stateDir, { recursive: true });
      const tmp = join(stateDir, `${FILE}.tmp`);
      writeFileSync(tmp, JSON.stringify({ version: 1, ...toRecord(state) }, null, 1));
      renameSync(tmp, join(stateDir, FILE));
    },
  };
}
