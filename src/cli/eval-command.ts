import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { modelSettingsFromEnv } from '../config/model-settings.js';
import { SETUP_TIMEOUT_MS, FIX_TOOL_LIMITS } from '../fix/defaults.js';
import { compareEvals } from '../eval/compare-evals.js';
import { InstanceFileError, instancesJsonl, readInstances, type EvalInstance } from '../eval/eval-instance.js';
import { readEvalResults, ResultsFileError, writeEvalResults } from '../eval/eval-results.js';
import { EvalStateError } from '../eval/eval-state.js';
import { percent, summarise, usd } from '../eval/eval-summary.js';
import { mineFixes } from '../eval/mine-fixes.js';
import { runEval } from '../eval/run-eval.js';
import type { EvalModel } from '../eval/run-instance.js';
import { createChatModel } from '../model/create-chat-model.js';
import { modelConfigOf } from '../model/model-config.js';
import { priceOf } from '../model/prices.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import { sandboxFileOwner } from '../sandbox/ownership.js';
import { checkSystemPackages } from '../sandbox/system-packages.js';
import type { Sandbox } from '../sandbox/types.js';
import { objectStoreOf } from '../workspace/sandbox-git-view.js';
import { crashWrappers } from './crash-wrappers.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { EVAL_USAGE, parseEvalOptions, type MineOptions, type RunOptions } from './eval-options.js';
import { reportError } from './fix-command.js';
import type { CliIo } from './io.js';
import { localCaches } from './local-caches.js';
import { localWorkdir } from './local-workdir.js';
import { ownWorkdirProblem, workdirProblem } from './workdir-check.js';

/** `greenfix eval`: mine past fixes, run instances through the fix, compare two runs (docs/eval.md). */
export async function evalCommand(argv: string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseEvalOptions(argv, io.cwd);
    if (parsed.command === 'help') {
      io.stdout(EVAL_USAGE);
      return ExitCode.verified;
    }
    if (parsed.command === 'compare') {
      io.stdout(compareEvals({ name: parsed.a, records: readEvalResults(parsed.a) }, { name: parsed.b, records: readEvalResults(parsed.b) }));
      return ExitCode.verified;
    }
    return parsed.command === 'mine' ? await mine(parsed.options, io) : await run(parsed.options, io);
  } catch (error) {
    if (error instanceof InstanceFileError || error instanceof ResultsFileError || error instanceof EvalStateError) {
      io.stderr(`greenfix: ${error.message}`);
      return ExitCode.usage;
    }
    return reportError(error, io);
  }
}

async function mine(options: MineOptions, io: CliIo): Promise<number> {
  if (!existsSync(join(options.repo, '.git')) && !existsSync(join(options.repo, 'HEAD'))) throw new UsageError(`--repo ${options.repo} is not a git repository`);
  const key = createHash('sha256').update(options.repo).digest('hex').slice(0, 8);
  const workdir = ownWorkdir(io);
  const scratch = join(workdir, 'eval-mine', key);
  const sandbox = await evalSandbox(io, scratch, [options.repo]);
  const caches = await localCaches({ workdir, repo: options.repo }, io, warnOn(io));
  const started = Date.now();
  try {
    const result = await mineFixes({
      repo: options.repo,
      ...(options.since ? { since: options.since } : {}),
      limit: options.limit,
      maxCommits: options.maxCommits,
      choice: { verify: options.testCommand, setup: options.setup },
      sandbox,
      scratch,
      ...caches,
      ...(options.issues ? { issuesDir: options.issues } : {}),
      setupTimeoutMs: SETUP_TIMEOUT_MS,
      testTimeoutMs: FIX_TOOL_LIMITS.testTimeoutSec * 1000,
      onProgress: io.stderr,
    });
    writeFileSync(options.out, instancesJsonl(result.instances));
    const looked = result.instances.length + result.dropped.length;
    io.stdout(`${result.instances.length} instances from ${looked} commits in ${((Date.now() - started) / 1000).toFixed(0)} s → ${options.out}`);
    const reasons = new Map<string, number>();
    for (const d of result.dropped) {
      const reason = d.reason.startsWith('not deterministic') ? 'not deterministic' : d.reason.split(':')[0]!;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    for (const [reason, n] of reasons) io.stdout(`  dropped ${n}: ${reason}`);
    return ExitCode.verified;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function run(options: RunOptions, io: CliIo): Promise<number> {
  const instances = readInstances(options.instances);
  const repos = new Map(instances.map((instance) => [instance.instance_id, repoFor(instance, options)]));
  const workdir = ownWorkdir(io);
  const caches = new Map<string, Awaited<ReturnType<typeof localCaches>>>();
  for (const repo of new Set(repos.values())) caches.set(repo, await localCaches({ workdir, repo }, io, warnOn(io)));
  const entries = instances.map((instance) => {
    const repo = repos.get(instance.instance_id)!;
    return { instance, repo, ...caches.get(repo) };
  });
  const model = evalModel(options, io);
  const name = model.kind === 'gold' ? 'gold' : model.model.name;
  if (options.maxCost !== undefined && model.kind === 'model' && !model.price) throw new UsageError(`--max-cost: the price of ${name} is unknown, so no budget can be kept (set GREENFIX_MODEL_PRICES)`);
  const out = options.out ?? join(io.cwd, `eval-${name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model'}`);
  mkdirSync(out, { recursive: true, mode: 0o711 });
  const sandbox = await evalSandbox(io, out, [...new Set(entries.map((e) => e.repo))]);
  const abort = new AbortController();
  const stop = io.terminal?.onSignal(() => abort.abort(new Error('interrupted: run the same command again to continue')));
  const started = Date.now();
  try {
    const result = await runEval({
      instances: entries,
      dir: out,
      model,
      choice: { verify: options.testCommand, setup: options.setup },
      budgets: { maxSteps: options.maxSteps, maxTokens: options.maxTokens, timeoutMinutes: options.timeoutMinutes, contextTokens: options.contextTokens },
      verifyMode: options.verifyMode,
      sandbox,
      wrap: crashWrappers(io.env),
      now: Date.now,
      concurrency: options.concurrency,
      ...(options.maxCost !== undefined ? { maxCostUsd: options.maxCost } : {}),
      onProgress: io.stderr,
      signal: abort.signal,
    }).catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
      throw new UsageError(`eval interrupted: what finished is kept in ${out}; run the same command again to continue`);
    });
    const paths = writeEvalResults(out, result.records, result.notRun);
    const s = summarise(result.records);
    io.stdout(`${name}: ${s.resolved} of ${s.instances} resolved (${percent(s.resolvedRate)}), ${s.verifiedWrong} verified but wrong, ${s.notVerified} not verified, ${s.errors} errors; cost ${usd(s.costUsd)}; ${((Date.now() - started) / 1000).toFixed(0)} s`);
    io.stdout(`report: ${paths.markdown}\n        ${paths.html}\nresults: ${paths.jsonl}`);
    return ExitCode.verified;
  } finally {
    stop?.();
  }
}

/** GREENFIX_WORKDIR (its caches, mining's worktrees), checked to be the user's own as `greenfix fix` checks it. */
function ownWorkdir(io: CliIo): string {
  const workdir = localWorkdir(io.env);
  const foreign = ownWorkdirProblem(workdir, process.getuid?.());
  if (foreign) throw new UsageError(foreign);
  return workdir;
}

function warnOn(io: CliIo): (message: string) => void {
  return (message) => io.stderr(`greenfix: warning: ${message}`);
}

/** The control `gold`, or the model `greenfix fix` would use (same settings, same prices). */
function evalModel(options: RunOptions, io: CliIo): EvalModel {
  if (options.model === 'gold') return { kind: 'gold' };
  const config = modelConfigOf(modelSettingsFromEnv(io.env, options.model));
  const model = createChatModel(config);
  return { kind: 'model', model, price: priceOf(config.prices, model.name) };
}

/** The repository that holds an instance's base: --repo for all, or its mirror under --mirrors. */
function repoFor(instance: EvalInstance, options: RunOptions): string {
  if (options.repo) return options.repo;
  const mirrors = options.mirrors!;
  const [owner, name] = instance.repo.includes('/') ? instance.repo.split('/', 2) : [null, instance.repo];
  const candidates = [owner ? join(mirrors, `${owner}__${name}`) : null, owner ? join(mirrors, owner, name!) : null, join(mirrors, name!)].filter((c): c is string => c !== null);
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new UsageError(`no mirror of ${instance.repo} (instance ${instance.instance_id}) in ${mirrors}: looked for ${candidates.join(', ')}`);
  return found;
}

/** The sandbox eval's commands run in: greenfix's own directory and the repositories' object stores are its data. */
async function evalSandbox(io: CliIo, dir: string, repos: readonly string[]): Promise<Sandbox> {
  const missing = checkSystemPackages({ env: io.env, isRoot: process.getuid?.() === 0, sandboxOff: io.env.GREENFIX_SANDBOX === 'off' });
  if (missing.length > 0) throw new UsageError(`missing system packages:\n${missing.map((m) => `  - ${m.message}`).join('\n')}`);
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const unreachable = io.env.GREENFIX_SANDBOX === 'off' ? null : workdirProblem(dir, sandboxFileOwner(), '--out');
  if (unreachable) throw new UsageError(unreachable);
  const stores = await Promise.all(repos.map((r) => objectStoreOf(r)));
  return createSandbox({ env: io.env, dataDirs: [dir, localWorkdir(io.env), ...stores], log: (level, message) => io.stderr(`greenfix: ${level}: ${message}`) });
}
