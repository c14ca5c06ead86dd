import type { AgentEvent } from '../agent/types.js';
import type { SetupResult } from './setup-phase.js';

/** A fix's phases, in the order it goes through them (run-fix.ts). */
export type FixPhase = 'setup' | 'baseline' | 'agent' | 'gate' | 'publish';

/**
 * What a fix tells whoever runs it, in order: the one stream through which fix/ and agent/ speak
 * to their caller. The job's reporter turns it into the status comment; the CLI into lines on
 * stderr. Nothing here is needed to resume a fix (the run state and journal are).
 *
 * - `phase`: a phase started (`running`), ended (`done`), or has nothing to do (`skipped`, e.g. no
 *   setup command). `setup` done carries its result, `baseline` done whether it came from the cache.
 *   A phase that never reports `done` did not end well: the result says why.
 * - `agent`: the agent loop's own progress (a model reply, a tool call, a compaction…).
 */
export type FixEvent =
  | { type: 'phase'; phase: FixPhase; state: 'running' | 'skipped'; detail: string }
  | { type: 'phase'; phase: 'setup'; state: 'done'; detail: string; setup: SetupResult }
  | { type: 'phase'; phase: 'baseline'; state: 'done'; detail: string; cached: boolean }
  | { type: 'phase'; phase: 'agent' | 'gate' | 'publish'; state: 'done'; detail: string }
  | { type: 'agent'; event: AgentEvent };

/** Hears a fix's events; a listener must not throw (it is told, it does not decide). */
export type FixListener = (event: FixEvent) => void;
