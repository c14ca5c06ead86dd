import { systemPrompt } from '../src/agent/prompt.js';
import { createTools, toolSpecs } from '../src/agent/tools/registry.js';

export interface PromptSizeBench {
  systemPromptBytes: number;
  toolSpecsBytes: number;
  totalBytes: number;
}

/** The bytes every single request pays before any history: the system prompt and the tool schemas. */
export function benchPromptSize(verifyCommand = 'npm test'): PromptSizeBench {
  const systemPromptBytes = Buffer.byteLength(systemPrompt(null, verifyCommand), 'utf8');
  const toolSpecsBytes = Buffer.byteLength(JSON.stringify(toolSpecs(createTools())), 'utf8');
  return { systemPromptBytes, toolSpecsBytes, totalBytes: systemPromptBytes + toolSpecsBytes };
}
