import type { ToolCall } from './types.js';

const BLOCK = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

/**
 * Tool calls a local model wrote into its text, as the Hermes and Qwen chat templates format
 * them (`<tool_call>{"name": …, "arguments": {…}}</tool_call>`), when the server did not parse
 * them (llama.cpp without `--jinja`, an Ollama template without tools). Blocks that are not such
 * JSON stay in the text.
 */
export function toolCallsInText(text: string): { calls: Array<Omit<ToolCall, 'id'>>; rest: string | null } {
  const calls: Array<Omit<ToolCall, 'id'>> = [];
  const rest = text.replace(BLOCK, (block, json: string) => {
    try {
      const parsed = JSON.parse(json) as { name?: unknown; arguments?: unknown };
      if (typeof parsed.name !== 'string') return block;
      calls.push({ name: parsed.name, arguments: typeof parsed.arguments === 'string' ? parsed.arguments : JSON.stringify(parsed.arguments ?? {}) });
      return '';
    } catch {
      return block;
    }
  });
  return { calls, rest: rest.trim() === '' ? null : rest.trim() };
}
