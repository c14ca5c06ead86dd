import * as z from 'zod';
import type { ToolSpec } from '../../model/types.js';
import { clipHeadTail } from '../../util/clip.js';
import { ToolRefusal } from './errors.js';
import { editFileTool } from './edit-file.js';
import { finishTool } from './finish.js';
import { listFilesTool } from './list-files.js';
import { readFileTool } from './read-file.js';
import { runTestsTool } from './run-tests.js';
import { runTool } from './run.js';
import { writeFileTool } from './write-file.js';
import { detectSearchBackend, type SearchBackend } from './search-backends.js';
import { createSearchTool } from './search.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

export interface ToolOptions {
  /** Default: `rg` when on PATH, else `git grep`. */
  searchBackend?: SearchBackend;
}

/** The tools the model sees, in the order it sees them (DESIGN §3.1). */
export function createTools(options: ToolOptions = {}): Tool[] {
  return [
    listFilesTool,
    readFileTool,
    createSearchTool(options.searchBackend ?? detectSearchBackend()),
    editFileTool,
    writeFileTool,
    runTool,
    runTestsTool,
    finishTool,
  ];
}

/** The JSON schema the model sees, generated from the same zod schema that validates the call. */
function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema) as Record<string, unknown>;
  delete json.$schema;
  // `.int()` adds maximum: 2^53-1, which is noise in every prompt.
  return JSON.parse(JSON.stringify(json, (k, v: unknown) => (k === 'maximum' && v === Number.MAX_SAFE_INTEGER ? undefined : v)));
}

export function toolSpecs(tools: readonly Tool[]): ToolSpec[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: parametersOf(t.schema) }));
}

/** `read_file {"path": string, "offset"?: integer}` — said back when a call's arguments were wrong. */
function signature(tool: Tool): string {
  const params = parametersOf(tool.schema);
  const props = (params.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set((params.required ?? []) as string[]);
  const fields = Object.entries(props).map(([k, v]) => `"${k}"${required.has(k) ? '' : '?'}: ${v.type ?? 'any'}`);
  return `${tool.name} {${fields.join(', ')}}`;
}

function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  // Some models send "" (or nothing) for a tool without arguments.
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

async function run(tools: readonly Tool[], call: { name: string; arguments: string }, ctx: ToolContext): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { ok: false, output: `unknown tool "${call.name}"; available: ${tools.map((t) => t.name).join(', ')}` };
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) {
    return { ok: false, output: `arguments of ${tool.name} are not valid JSON (${parsed.error}); expected ${signature(tool)}` };
  }
  const args = tool.schema.safeParse(parsed.value ?? {});
  if (!args.success) {
    return { ok: false, output: `invalid arguments for ${tool.name}:\n${z.prettifyError(args.error)}\nexpected ${signature(tool)}` };
  }
  try {
    return await tool.execute(args.data, ctx);
  } catch (e) {
    if (e instanceof ToolRefusal) return { ok: false, output: e.message };
    return { ok: false, output: `${tool.name} failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * Runs one model tool call. Never throws: unknown tools, bad arguments and tool failures become
 * observations the model reads, and every observation is clipped to the output budget.
 */
export async function executeToolCall(
  tools: readonly Tool[],
  call: { name: string; arguments: string },
  ctx: ToolContext,
): Promise<ToolResult> {
  const result = await run(tools, call, ctx);
  return { ...result, output: clipHeadTail(result.output, ctx.limits.outputChars) };
}
