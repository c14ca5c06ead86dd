import { resolve } from 'node:path';
import * as z from 'zod';
import { DEFAULT_BUDGETS } from '../config/budget-defaults.js';
import { FIX_CONTEXT } from '../fix/defaults.js';
import { DEFAULT_APPROVE } from './approvals.js';
import { UsageError } from './exit-codes.js';
import { parseFlags } from './parse-flags.js';

export const CHAT_USAGE = `Usage: greenfix chat --repo DIR [options]     (bare \`greenfix\` on a terminal: chat in .)

An interactive session: each line is a request, with the earlier ones as context. The agent works
in a worktree of DIR with every command sandboxed; /commit commits the verified tree.

Options:
  --repo DIR             git repository (default: .); --init makes a plain directory one
  --init                 make DIR a git repository first if it is not one
  --verify CMD           test command (default: detected)
  --model M              model name (default: $GREENFIX_MODEL); scripted:FILE replays a script
  --session FILE         the session journal (default: <git dir>/greenfix/chat.jsonl); an
                         interrupted session there is resumed
  --yes                  never ask before run / edits
  --approve LIST         tools that ask first (default: ${DEFAULT_APPROVE.join(',')})
  --max-steps N          steps per request (default ${DEFAULT_BUDGETS.maxSteps})
  --context-tokens N     most tokens sent per model request (default ${FIX_CONTEXT.maxTokens})
  -h, --help             show this help

Commands: /diff /tests /commit /undo /history /save FILE /model NAME /clear /help /exit`;

const APPROVABLE = ['run', 'edit_file', 'write_file'] as const;

const ChatOptionsSchema = z.strictObject({
  repo: z.string().min(1),
  init: z.boolean().default(false),
  verify: z.string().trim().min(1).optional(),
  model: z.string().trim().min(1).optional(),
  session: z.string().min(1).optional(),
  yes: z.boolean().default(false),
  approve: z.array(z.enum(APPROVABLE)).default([...DEFAULT_APPROVE]),
  maxSteps: z.coerce.number().int().positive().default(DEFAULT_BUDGETS.maxSteps),
  contextTokens: z.coerce.number().int().positive().min(2_000).default(FIX_CONTEXT.maxTokens),
});
export type ChatOptions = z.infer<typeof ChatOptionsSchema>;

/** Parses `greenfix chat` arguments; every problem becomes a UsageError (exit 2). */
export function parseChatOptions(argv: string[], cwd: string): ChatOptions | 'help' {
  const values = parseFlags(argv, {
        repo: { type: 'string', default: '.' },
        init: { type: 'boolean' },
        verify: { type: 'string' },
        model: { type: 'string' },
        session: { type: 'string' },
        yes: { type: 'boolean' },
        approve: { type: 'string' },
        'max-steps': { type: 'string' },
        'context-tokens': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      }, CHAT_USAGE);
  if (values.help) return 'help';
  const approve = typeof values.approve === 'string' ? values.approve.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  const parsed = ChatOptionsSchema.safeParse({
    repo: resolve(cwd, values.repo as string),
    init: values.init,
    verify: values.verify,
    model: values.model,
    session: typeof values.session === 'string' ? resolve(cwd, values.session) : undefined,
    yes: values.yes,
    approve,
    maxSteps: values['max-steps'],
    contextTokens: values['context-tokens'],
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  --${String(i.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`);
    throw new UsageError(`invalid options:\n${problems.join('\n')}\n\n${CHAT_USAGE}`);
  }
  return parsed.data;
}
