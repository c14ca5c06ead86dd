import { z } from 'zod';
import type { ToolSpec } from '../model/types.js';
import type { Tool } from './tools/types.js';
import type { ExecuteToolCall } from './types.js';

/** What the model is told about the tools. (Switches to the registry's `toolSpecs` once it lands.) */
export function toolSpecs(tools: readonly Tool[]): ToolSpec[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: z.toJSONSchema(t.schema) as Record<string, unknown> }));
}

/** The dispatcher to use. (Defaults to the registry's `executeToolCall` once it lands.) */
export function executorOf(deps: { execute?: ExecuteToolCall }): ExecuteToolCall {
  if (!deps.execute) throw new Error('no tool dispatcher given');
  return deps.execute;
}
