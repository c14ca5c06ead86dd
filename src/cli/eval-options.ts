import { resolve } from 'node:path';
import * as z from 'zod';
import { DEFAULT_BUDGETS } from '../config/budget-defaults.js';
import { FIX_CONTEXT } from '../fix/defaults.js';
import { UsageError } from './exit-codes.js';
import { parseFlags } from './parse-flags.js';

export const EVAL_USAGE = `Usage:
  greenfix eval mine --repo DIR [--since DATE] [--limit N] [--out FILE] [options]
  greenfix eval run --instances FILE (--repo DIR | --mirrors DIR) --model M [--out DIR] [options]
  greenfix eval --compare A.jsonl B.jsonl

How well would greenfix do on your repository, and at what cost? \`mine\` turns past fixes in
DIR's history into instances (SWE-bench layout, JSON Lines); \`run\` runs each instance through
exactly the fix \`greenfix fix\` makes, then checks its FAIL_TO_PASS and PASS_TO_PASS tests on
the tree the fix ended with, and writes results.jsonl, report.md and report.html in --out.
An interrupted \`run\` continues when started again with the same --out.

mine:
  --repo DIR             the repository whose history is mined (default: .)
  --since DATE           only commits after DATE (git's --since: 2024-01-01, "90 days ago")
  --limit N              stop after N instances (default 20)
  --max-commits N        look at no more than N commits (default 200)
  --issues DIR           copies of linked issues (<number>.json with title and body) for the task text
  --out FILE             where the instances go (default: instances.jsonl)

run:
  --instances FILE       instances, JSON array or JSON Lines (SWE-bench layout)
  --repo DIR             the repository that holds every instance's base commit
  --mirrors DIR          or: one mirror per instance's repo, DIR/<owner>__<name> or DIR/<name>
  --model M              model name (default: $GREENFIX_MODEL); scripted:FILE replays a script;
                         gold replays each instance's gold change (a control: expect 100 %)
  --out DIR              the eval's directory (default: eval-<model>)
  --concurrency N        instances at once (default 1)
  --max-cost USD         the whole eval's money budget (needs a priced model)
  --verify-mode MODE     all_pass (default) or no_new_failures
  --max-steps N, --max-tokens N, --timeout-minutes N, --context-tokens N   each instance's budgets

both:
  --test-command CMD     the test command (default: detected, as greenfix fix does)
  --setup CMD            the dependency install command (default: detected)
  -h, --help             show this help`;

const positiveInt = z.coerce.number().int().positive();

const MineSchema = z.strictObject({
  repo: z.string(),
  since: z.string().trim().min(1).optional(),
  limit: positiveInt.default(20),
  maxCommits: positiveInt.default(200),
  issues: z.string().optional(),
  out: z.string(),
  testCommand: z.string().trim().min(1).optional(),
  setup: z.string().trim().min(1).optional(),
});
export type MineOptions = z.infer<typeof MineSchema>;

const RunSchema = z
  .strictObject({
    instances: z.string({ error: 'missing --instances FILE' }),
    repo: z.string().optional(),
    mirrors: z.string().optional(),
    model: z.string().trim().min(1).optional(),
    out: z.string().optional(),
    concurrency: positiveInt.max(16).default(1),
    maxCost: z.coerce.number().positive('must be a positive amount of USD such as 5').max(100_000).optional(),
    verifyMode: z.enum(['all_pass', 'no_new_failures']).default('all_pass'),
    maxSteps: positiveInt.default(DEFAULT_BUDGETS.maxSteps),
    maxTokens: positiveInt.default(DEFAULT_BUDGETS.maxTokens),
    timeoutMinutes: positiveInt.default(DEFAULT_BUDGETS.timeoutMinutes),
    contextTokens: positiveInt.min(2_000).default(FIX_CONTEXT.maxTokens),
    testCommand: z.string().trim().min(1).optional(),
    setup: z.string().trim().min(1).optional(),
  })
  .refine((o) => (o.repo === undefined) !== (o.mirrors === undefined), { message: 'give --repo DIR or --mirrors DIR (one of them)', path: ['repo'] });
export type RunOptions = z.infer<typeof RunSchema>;

export type EvalOptions = { command: 'help' } | { command: 'mine'; options: MineOptions } | { command: 'run'; options: RunOptions } | { command: 'compare'; a: string; b: string };

const SHARED = { 'test-command': { type: 'string' }, setup: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/** Parses `greenfix eval …`; every problem is a UsageError (exit 2) with the usage. */
export function parseEvalOptions(argv: string[], cwd: string): EvalOptions {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return { command: 'help' };
  if (sub === '--compare' || sub === 'compare') {
    if (rest.length !== 2) throw new UsageError(`--compare takes two results files: greenfix eval --compare A.jsonl B.jsonl\n\n${EVAL_USAGE}`);
    return { command: 'compare', a: resolve(cwd, rest[0]!), b: resolve(cwd, rest[1]!) };
  }
  if (sub === 'mine') {
    const v = parseFlags(rest, { ...SHARED, repo: { type: 'string', default: '.' }, since: { type: 'string' }, limit: { type: 'string' }, 'max-commits': { type: 'string' }, issues: { type: 'string' }, out: { type: 'string', default: 'instances.jsonl' } }, EVAL_USAGE);
    if (v.help) return { command: 'help' };
    const options = check(MineSchema, { repo: resolve(cwd, v.repo as string), since: v.since, limit: v.limit, maxCommits: v['max-commits'], issues: v.issues === undefined ? undefined : resolve(cwd, v.issues as string), out: resolve(cwd, v.out as string), testCommand: v['test-command'], setup: v.setup });
    return { command: 'mine', options };
  }
  if (sub === 'run') {
    const v = parseFlags(
      rest,
      { ...SHARED, instances: { type: 'string' }, repo: { type: 'string' }, mirrors: { type: 'string' }, model: { type: 'string' }, out: { type: 'string' }, concurrency: { type: 'string' }, 'max-cost': { type: 'string' }, 'verify-mode': { type: 'string' }, 'max-steps': { type: 'string' }, 'max-tokens': { type: 'string' }, 'timeout-minutes': { type: 'string' }, 'context-tokens': { type: 'string' } },
      EVAL_USAGE,
    );
    if (v.help) return { command: 'help' };
    const path = (x: unknown) => (x === undefined ? undefined : resolve(cwd, x as string));
    const options = check(RunSchema, {
      instances: path(v.instances),
      repo: path(v.repo),
      mirrors: path(v.mirrors),
      model: v.model,
      out: path(v.out),
      concurrency: v.concurrency,
      maxCost: v['max-cost'],
      verifyMode: v['verify-mode'],
      maxSteps: v['max-steps'],
      maxTokens: v['max-tokens'],
      timeoutMinutes: v['timeout-minutes'],
      contextTokens: v['context-tokens'],
      testCommand: v['test-command'],
      setup: v.setup,
    });
    return { command: 'run', options };
  }
  throw new UsageError(`unknown eval command '${sub}'\n\n${EVAL_USAGE}`);
}

function check<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  --${String(i.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`);
  throw new UsageError(`invalid options:\n${problems.join('\n')}\n\n${EVAL_USAGE}`);
}
