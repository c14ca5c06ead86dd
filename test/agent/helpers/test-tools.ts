import { z } from 'zod';
import type { ToolCall } from '../../../src/model/types.js';
import type { Tool, ToolContext, ToolResult } from '../../../src/agent/tools/types.js';
import type { VerifiedTree } from '../../../src/workspace/types.js';

/** Small tools with the real Tool shape, for driving the loop without a workspace. */

export function echoTool(): Tool {
  const schema = z.object({ text: z.string() });
  return { name: 'echo', description: 'echo text', schema, readOnly: true, execute: async (a: z.infer<typeof schema>) => ({ ok: true, output: `echo: ${a.text}` }) };
}

/** Read-only, counts real executions (to tell re-execution from a replayed result). */
export function lookTool(counter: { runs: number }): Tool {
  const schema = z.object({ path: z.string() });
  return {
    name: 'look',
    description: 'look at a path',
    schema,
    readOnly: true,
    execute: async (a: z.infer<typeof schema>) => {
      counter.runs += 1;
      return { ok: true, output: `looked at ${a.path} (run ${counter.runs})` };
    },
  };
}

/** Has an effect: appends to a log the test can inspect. */
export function writeTool(log: string[]): Tool {
  const schema = z.object({ text: z.string() });
  return { name: 'write', description: 'write', schema, readOnly: false, execute: async (a: z.infer<typeof schema>) => (log.push(a.text), { ok: true, output: 'written' }) };
}

/** Output of a chosen size, to fill the context. */
export function bigTool(): Tool {
  const schema = z.object({ chars: z.number() });
  return { name: 'big', description: 'big output', schema, readOnly: true, execute: async (a: z.infer<typeof schema>) => ({ ok: true, output: 'x'.repeat(a.chars) }) };
}

/** Passes (and verifies tree `tree`) when `state.green`, else fails with a fixed output. */
export function testsTool(state: { green: boolean; tree: string }): Tool {
  const schema = z.object({});
  return {
    name: 'run_tests',
    description: 'run the tests',
    schema,
    readOnly: false,
    execute: async (): Promise<ToolResult> => {
      if (!state.green) return { ok: false, output: 'FAIL sum.test.js\n  expected 3, received 4\nTime: 0.51 s' };
      const verified: VerifiedTree = { tree: state.tree, command: 'npm test', exitCode: 0, durationMs: 5, outputTail: 'ok' };
      return { ok: true, output: 'tests passed', verified };
    },
  };
}

/** Accepts only on a verified tree, or when giving up: the finish contract of DESIGN §3.1. */
export function finishTool(): Tool {
  const schema = z.object({ summary: z.string(), gave_up: z.boolean().optional() });
  return {
    name: 'finish',
    description: 'finish',
    schema,
    readOnly: false,
    execute: async (a: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolResult> => {
      const gaveUp = a.gave_up ?? false;
      if (!gaveUp && !ctx.verified) return { ok: false, output: 'refused: the current tree is not verified; run run_tests first' };
      return { ok: true, output: 'finished', finish: { summary: a.summary, gaveUp } };
    },
  };
}

/** A minimal dispatcher with the registry's contract: bad input is a result, never a throw. */
export async function testExecute(tools: readonly Tool[], call: ToolCall, ctx: ToolContext): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { ok: false, output: `unknown tool ${call.name}` };
  let json: unknown;
  try {
    json = JSON.parse(call.arguments || '{}');
  } catch {
    return { ok: false, output: 'arguments are not valid JSON' };
  }
  const args = tool.schema.safeParse(json);
  if (!args.success) return { ok: false, output: `invalid arguments: ${args.error.message}` };
  return tool.execute(args.data, ctx);
}
