import { join } from 'node:path';
import { openJournal } from '../src/agent/journal.js';
import { runAgent } from '../src/agent/loop.js';
import { systemPrompt } from '../src/agent/prompt.js';
import { createTools } from '../src/agent/tools/registry.js';
import type { ToolLimits } from '../src/agent/tools/types.js';
import type { ContextLimits } from '../src/agent/context.js';
import type { AgentOutcome } from '../src/agent/types.js';
import type { ChatModel } from '../src/model/types.js';
import { FIX_CONTEXT, FIX_TOOL_LIMITS } from '../src/fix/defaults.js';
import { sandboxFileOwner } from '../src/sandbox/ownership.js';
import type { Sandbox } from '../src/sandbox/types.js';
import type { ObservableWorkspace } from '../src/workspace/types.js';

/** The limits `greenfix fix` uses, from the one place that defines them. */
export const CLI_TOOL_LIMITS: ToolLimits = FIX_TOOL_LIMITS;
export const CLI_CONTEXT: ContextLimits = FIX_CONTEXT;

export interface ScriptedRun {
  model: ChatModel;
  workspace: ObservableWorkspace;
  sandbox: Sandbox;
  context: ContextLimits;
  verifyCommand: string;
  /** Where the journal goes (a real, fsynced file). */
  dir: string;
  maxSteps: number;
}

/** One run of the real loop, real tools and a real journal, wired as the CLI wires them. */
export async function runScripted(run: ScriptedRun): Promise<AgentOutcome> {
  const journal = openJournal(join(run.dir, 'journal.jsonl'));
  try {
    return await runAgent(
      {
        model: run.model,
        tools: createTools(),
        toolContext: { workspace: run.workspace, sandbox: run.sandbox, verifyCommand: run.verifyCommand, fileOwner: sandboxFileOwner(), limits: CLI_TOOL_LIMITS },
        journal,
        budget: { maxSteps: run.maxSteps, maxTokens: Number.MAX_SAFE_INTEGER, maxWallMs: 10 * 60_000 },
        context: run.context,
        now: Date.now,
      },
      { task: 'Enable the feature flag so that the tests pass.', systemPrompt: systemPrompt(null, run.verifyCommand) },
    );
  } finally {
    journal.close();
  }
}
