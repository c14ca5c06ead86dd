import type { FileJournal } from '../agent/journal.js';
import type { Publisher } from './publisher.js';
import type { RunStateStore } from './run-state.js';

/**
 * Decorators for a fix's effects, chosen where the process is assembled and applied once, by the
 * fix assembly (assemble-fix.ts). The identity ones in production; a process started with
 * GREENFIX_CRASH_AT gets ones that kill it between two effects (cli/crash-wrappers.ts).
 */
export interface FixWrappers {
  journal(journal: FileJournal): FileJournal;
  publisher(publisher: Publisher): Publisher;
  state(store: RunStateStore): RunStateStore;
}

export const noFixWrappers: FixWrappers = { journal: (j) => j, publisher: (p) => p, state: (s) => s };
