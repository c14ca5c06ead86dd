import { executeToolCall } from './tools/registry.js';
import type { ExecuteToolCall } from './types.js';


/** The dispatcher a run uses: the injected one (tests), else the registry's. */
export function executorOf(deps: { execute?: ExecuteToolCall }): ExecuteToolCall {
  return deps.execute ?? executeToolCall;
}
