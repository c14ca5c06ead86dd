/** The agent's public surface for run/ and cli/: import from here, not from the files behind it. */
export { runAgent, continueRun } from './loop.js';
export { resumeAgent, runOrResume } from './resume.js';
export { ResumeError } from './resume-replay.js';
export { openJournal, readJournal, JournalCorruptError, type Journal, type FileJournal, type JournalRecord, type JournalEntry } from './journal.js';
export { systemPrompt, taskMessage } from './prompt.js';
export { createCrashPoints, noCrashPoints, type CrashPoints, type CrashPointName } from './crash-points.js';
export type { Budget, BudgetName } from './budget.js';
export type { ContextLimits } from './context.js';
export type * from './types.js';
