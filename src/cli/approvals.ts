import type { ToolCall } from '../model/types.js';
import type { ExecuteToolCall } from '../agent/types.js';

/** The tools that ask first in an interactive session unless `--approve` says otherwise. */
export const DEFAULT_APPROVE = ['run', 'edit_file', 'write_file'] as const;

export const DECLINED = 'the user declined this command: do not run it again; ask for another way or do without it';
export const NO_TERMINAL =
  'not run: this needs the user\'s approval and nobody can answer (no terminal). The user can start greenfix chat with --yes to allow it.';

export interface ApprovalPolicy {
  /** Tools that ask (empty with --yes). `run_tests` never asks: it runs the configured command. */
  ask: ReadonlySet<string>;
  /** Asks the user one question and resolves with the line typed; null when there is no terminal. */
  prompt: ((question: string) => Promise<string>) | null;
  /** True when a write goes to a path the user named in a request (those do not ask). */
  named: (path: string) => boolean;
  /** Said once, the first time an approval is refused for want of a terminal. */
  warn: (line: string) => void;
}

function describe(call: ToolCall, args: Record<string, unknown>): string {
  if (call.name === 'run') return `run: ${String(args.command ?? '')}`;
  return `${call.name}: ${String(args.path ?? '')}`;
}

function parse(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw || '{}') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Wraps the tool dispatcher: a call of a tool in `ask` waits for y (yes), n (no: an observation,
 * never an error), a (always, for this tool, this session) or e (edit the command, then run it).
 * Without a terminal every such call is refused, with one line saying `--yes` exists.
 */
export function approvingExecutor(inner: ExecuteToolCall, policy: ApprovalPolicy): ExecuteToolCall {
  const always = new Set<string>();
  let warned = false;
  return async (tools, call, ctx) => {
    if (!policy.ask.has(call.name) || always.has(call.name)) return inner(tools, call, ctx);
    const args = parse(call.arguments);
    if (call.name !== 'run' && typeof args.path === 'string' && policy.named(args.path)) return inner(tools, call, ctx);
    if (!policy.prompt) {
      if (!warned) policy.warn('greenfix: approvals are refused without a terminal; start with --yes (or --approve LIST) to allow them');
      warned = true;
      return { ok: false, output: NO_TERMINAL };
    }
    for (;;) {
      const edit = call.name === 'run' ? ', e = edit' : '';
      const answer = (await policy.prompt(`[approve] ${describe(call, args)}  (y = yes, n = no, a = always this session${edit}) `)).trim().toLowerCase();
      if (answer === 'y' || answer === 'yes') return inner(tools, call, ctx);
      if (answer === 'n' || answer === 'no') return { ok: false, output: DECLINED };
      if (answer === 'a') {
        always.add(call.name);
        return inner(tools, call, ctx);
      }
      if (answer === 'e' && call.name === 'run') {
        const command = (await policy.prompt('command> ')).trim();
        if (command === '') return { ok: false, output: DECLINED };
        const result = await inner(tools, { ...call, arguments: JSON.stringify({ ...args, command }) }, ctx);
        return { ...result, output: `[the user edited the command to: ${command}]\n${result.output}` };
      }
    }
  };
}
