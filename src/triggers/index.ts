export { triggerFor } from './route.js';
export { dedupeKeyFor } from './dedupe.js';
export { parseAgentCommand, agentCommandHelp, MAX_INSTRUCTIONS_CHARS, type AgentCommand } from './agent-command.js';
export { MAX_BODY_CHARS } from './payload-helpers.js';
export * from './types.js';
