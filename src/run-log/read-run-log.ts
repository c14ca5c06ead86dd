import { readJournal } from '../agent/journal.js';
import { buildRunLog, type BuildOptions, type RunLog } from './run-log.js';

/** The run log of a journal file (throws JournalCorruptError on a damaged one; an absent file is an empty log). */
export function readRunLog(journalPath: string, options: BuildOptions = {}): RunLog {
  return buildRunLog(readJournal(journalPath), options);
}

/** JSON export: the model itself, already redacted; `version` names its shape. */
export function renderRunLogJson(log: RunLog): string {
  return JSON.stringify({ version: 1, ...log }, null, 2);
}
