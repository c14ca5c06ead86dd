import type { ContextLimits } from '../agent/context.js';
import type { ToolLimits } from '../agent/tools/types.js';

/** What one tool result may show the model, and how long commands may run (CLI and app alike). */
export const FIX_TOOL_LIMITS: ToolLimits = { outputChars: 12_000, runTimeoutSec: 120, runTimeoutMaxSec: 900, testTimeoutSec: 900 };

/**
 * Tokens sent per request. 20,000 keeps a 60-step session at about a quarter of what the full
 * history would cost (`npm run bench`), while the newest six tool results are always sent whole;
 * when stubs are not enough, the model writes a handoff summary of the older turns (agent/compact.ts).
 * Older results are stubbed four at a time, so the steps in between only append and a provider's
 * prompt cache serves the rest (`npm run bench`: stable-prefix share 0.33 → 0.44 at 20,000, 0.80 → 0.88 at 60,000).
 */
export const FIX_CONTEXT: ContextLimits = { maxTokens: 20_000, keepLastToolResults: 6, handoffSummary: true, stubChunk: 4 };

/** The setup command (dependency install, with network) gets 20 minutes. */
export const SETUP_TIMEOUT_MS = 20 * 60_000;
