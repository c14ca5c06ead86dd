import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { UsageError } from './exit-codes.js';
import { DEFAULT_BUDGETS } from '../config/budget-defaults.js';
import { FIX_CONTEXT } from '../fix/defaults.js';
import { parseFlags } from './parse-flags.js';

export const FIX_USAGE = `Usage: greenfix fix --repo DIR --task TEXT [options]

Makes a worktree of DIR, lets the model fix TASK with every command sandboxed, and leaves one
commit on branch greenfix/<slug> whose tree passed the verify command.

Options:
  --repo DIR             git repository to work on (default: .); one without commits works
                         from an empty base
  --init                 make DIR a git repository first if it is not one
  --task TEXT            what to fix
  --task-file FILE       read the task from FILE instead
  --verify CMD           test command (default: detected)
  --setup CMD            dependency install command, run with network (default: detected)
  --verify-mode MODE     all_pass (default: the whole command passes) or no_new_failures
                         (nothing that passed on the base fails, a failing or new test passes)
  --allow-removed-tests  a tree on which tests that ran on the base are gone or skipped may
                         still verify (they are listed); default: such a tree is not verified
  --model M              model name (default: $GREENFIX_MODEL); scripted:FILE replays a script
  --max-steps N          step budget (default ${DEFAULT_BUDGETS.maxSteps})
  --max-tokens N         token budget, prompt + completion (default ${DEFAULT_BUDGETS.maxTokens})
  --timeout-minutes N    wall-time budget (default ${DEFAULT_BUDGETS.timeoutMinutes})
  --context-tokens N     most tokens sent per model request (default ${FIX_CONTEXT.maxTokens})
  --max-cost USD         money budget: no model call whose worst case would cross it (default: none)
  --json                 print a JSON summary as the last line on stdout
  --resume               continue the latest run of the same task (a new run gets its own directory)
  -h, --help             show this help

Exit codes: 0 verified and committed, 1 no verified tree (no commit),
            2 usage or configuration error, 3 model or infrastructure failure.`;

const positiveInt = z.coerce.number().int().positive();

const FixOptionsSchema = z.strictObject({
  repo: z.string().min(1),
  task: z.string().trim().min(1, 'the task is empty'),
  verify: z.string().trim().min(1).optional(),
  setup: z.string().trim().min(1).optional(),
  model: z.string().trim().min(1).optional(),
  /** Absent: the repository's `verify_mode` (or all_pass). */
  verifyMode: z.enum(['all_pass', 'no_new_failures']).optional(),
  /** The repository's `tests.allow_removed`, locally. */
  allowRemovedTests: z.boolean().default(false),
  maxSteps: positiveInt.default(DEFAULT_BUDGETS.maxSteps),
  maxTokens: positiveInt.default(DEFAULT_BUDGETS.maxTokens),
  timeoutMinutes: positiveInt.default(DEFAULT_BUDGETS.timeoutMinutes),
  contextTokens: positiveInt.min(2_000).default(FIX_CONTEXT.maxTokens),
  maxCost: z.coerce.number().positive('must be a positive amount of USD such as 0.50').max(1000).optional(),
  json: z.boolean().default(false),
  init: z.boolean().default(false),
  resume: z.boolean().default(false),
});
export type FixOptions = z.infer<typeof FixOptionsSchema>;

/** Parses `greenfix fix` arguments; every problem becomes a UsageError (exit 2). */
export function parseFixOptions(argv: string[], cwd: string): FixOptions | 'help' {
  const values = parseFlags(argv, {
        repo: { type: 'string', default: '.' },
        task: { type: 'string' },
        'task-file': { type: 'string' },
        verify: { type: 'string' },
        setup: { type: 'string' },
        'verify-mode': { type: 'string' },
        'allow-removed-tests': { type: 'boolean' },
        model: { type: 'string' },
        'max-steps': { type: 'string' },
        'max-tokens': { type: 'string' },
        'timeout-minutes': { type: 'string' },
        'context-tokens': { type: 'string' },
        'max-cost': { type: 'string' },
        json: { type: 'boolean' },
        init: { type: 'boolean' },
        resume: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      }, FIX_USAGE);
  if (values.help) return 'help';
  const task = readTask(values.task as string | undefined, values['task-file'] as string | undefined, cwd);
  const parsed = FixOptionsSchema.safeParse({
    repo: resolve(cwd, values.repo as string),
    task,
    verify: values.verify,
    setup: values.setup,
    verifyMode: values['verify-mode'],
    allowRemovedTests: values['allow-removed-tests'],
    model: values.model,
    maxSteps: values['max-steps'],
    maxTokens: values['max-tokens'],
    timeoutMinutes: values['timeout-minutes'],
    contextTokens: values['context-tokens'],
    maxCost: values['max-cost'],
    json: values.json,
    init: values.init,
    resume: values.resume,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  --${kebab(String(i.path[0] ?? ''))}: ${i.message}`);
    throw new UsageError(`invalid options:\n${problems.join('\n')}\n\n${FIX_USAGE}`);
  }
  return parsed.data;
}

function readTask(task: string | undefined, file: string | undefined, cwd: string): string {
  if (task !== undefined && file !== undefined) throw new UsageError('give --task or --task-file, not both');
  if (file === undefined) {
    if (task === undefined) throw new UsageError(`missing --task\n\n${FIX_USAGE}`);
    return task;
  }
  try {
    return readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --task-file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
