import * as path from 'node:path';
import { openJournal, type FileJournal } from '../../../src/agent/journal.js';
import type { AgentDeps, AgentEvent } from '../../../src/agent/types.js';
import type { ChatModel } from '../../../src/model/types.js';
import type { Tool, ToolContext } from '../../../src/agent/tools/types.js';
import { testExecute } from './test-tools.js';
import { TempDirs } from '../../support/temp-dir.js';

export interface TempFixture {
  dir: string;
  /** Runs `fn` at cleanup, before the directory goes (closing journals). */
  defer(fn: () => void): void;
  cleanup(): void;
}

/** A private temp dir per test that runs deferred closers before it goes; `cleanup` in afterEach. */
export function tempFixture(): TempFixture {
  const dirs = new TempDirs();
  const dir = dirs.make('greenfix-agent-');
  const deferred: Array<() => void> = [];
  return {
    dir,
    defer: (fn) => deferred.push(fn),
    cleanup: () => {
      for (const fn of deferred.splice(0)) fn();
      dirs.cleanup();
    },
  };
}

/** The test tools touch neither workspace nor sandbox; these throw if anything does. */
export function unusedToolContext(): Omit<ToolContext, 'verified'> {
  const unused = () => {
    throw new Error('not used by the test tools');
  };
  return {
    workspace: { root: '/nonexistent', gitDir: '/nonexistent', baseCommit: '0'.repeat(40), scratchDir: '/nonexistent', sandboxBinds: [], treeHash: unused, observe: unused, release: unused, keepSetupState: unused, prepareCleanRooms: unused, openCleanRoom: unused, outsideTree: unused },
    sandbox: { kind: 'none', run: unused },
    verifyCommand: 'npm test',
    fileOwner: null,
    limits: { outputChars: 10_000, runTimeoutSec: 60, runTimeoutMaxSec: 600, testTimeoutSec: 600 },
  };
}

export interface TestDeps extends AgentDeps {
  journal: FileJournal;
  events: AgentEvent[];
}

/** Deps around a real file journal in `tmp` (closed at cleanup) and a fake clock. */
export function testDeps(tmp: TempFixture, model: ChatModel, tools: Tool[], overrides: Partial<AgentDeps> = {}): TestDeps {
  const events: AgentEvent[] = [];
  let clock = 1_000_000;
  const journal = openJournal(path.join(tmp.dir, 'journal.jsonl'), () => clock);
  tmp.defer(() => journal.close());
  return {
    model,
    tools,
    execute: testExecute,
    toolContext: unusedToolContext(),
    journal,
    budget: { maxSteps: 50, maxTokens: 1_000_000, maxWallMs: 3_600_000 },
    context: { maxTokens: 50_000, keepLastToolResults: 5 },
    now: () => (clock += 10),
    onEvent: (e) => events.push(e),
    events,
    ...overrides,
  } as TestDeps;
}
