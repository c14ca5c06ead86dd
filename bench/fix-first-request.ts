import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { completion, FakeOpenAIServer } from '../test/support/fake-openai-server.js';
import { makeSourceRepo, VERIFY_COMMAND } from './source-repo.js';
import { BENCH_CLI as CLI, cliNodeFlags } from './cli-node-flags.js';
import { median } from './median.js';

export interface FixFirstRequestBench {
  /** Launch of `greenfix fix` → its first model request, the first run of a commit (the baseline test run happens and is cached). */
  coldMs: number;
  /** The same with the baseline cached, one per run (the goal is on their median). */
  warmRuns: number[];
  warmMs: number;
  /** A bare `node -e 0` launch to exit in the same run (median of as many): the floor under every figure. */
  nodeMs: number;
  /** warmMs / coldMs. */
  ratio: number;
  /**
   * CPU time (ms) the process, its live descendants and the children they had reaped had used when
   * the request arrived (/proc/<pid>/stat utime+stime+cutime+cstime, 10 ms ticks): its own work, which the machine's
   * load does not inflate the way it does wall time. Median of the cached-baseline runs.
   */
  warmCpuMs: number;
  /** With `before` (another build of the CLI): its cached-baseline launches, alternating with these, and their medians. */
  beforeRuns?: number[];
  beforeMs?: number;
  beforeCpuMs?: number;
}

interface Launch {
  ms: number;
  cpuMs: number;
}


export interface FixFirstRequestOptions {
  runs?: number;
  env: Record<string, string | undefined>;
  /** Another build's `src/cli/main.js` (an earlier commit's dist/): timed alternately with this one on the same repository and workdir. */
  before?: string;
  /** The CLI to time; default this build's (dist-bench/src/cli/main.js beside this file). */
  cli?: string;
}

/** The model gives up at once: what is measured ends at its first request. */
const GIVE_UP = {
  status: 200,
  json: completion({ content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'finish', arguments: JSON.stringify({ summary: 'bench', gave_up: true }) } }] }),
};

/**
 * Issue 26: `greenfix fix` as a user runs it (the built CLI, a real repository, the sandbox the
 * environment chooses, a chat-completions server on loopback), from the process's spawn to the
 * arrival of its first model request. The first run of the commit tests the base and caches it;
 * the next `runs` read the cached baseline (the same task again: a fresh run each time).
 */
export async function benchFixFirstRequest(options: FixFirstRequestOptions): Promise<FixFirstRequestBench> {
  const runs = options.runs ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-first-request-'));
  chmodSync(dir, 0o755); // the sandbox uid passes through to the worktree
  const server = await FakeOpenAIServer.start();
  try {
    const repo = join(dir, 'repo');
    await makeSourceRepo(repo, { files: 40, minLines: 150, maxLines: 600 });
    server.script(GIVE_UP);
    const env = {
      PATH: options.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GREENFIX_WORKDIR: join(dir, 'work'),
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'bench',
      GREENFIX_MODEL: 'bench-model',
      ...(options.env.GREENFIX_SANDBOX ? { GREENFIX_SANDBOX: options.env.GREENFIX_SANDBOX } : {}),
    };
    const args = (cli: string) => [...cliNodeFlags(cli), cli, 'fix', '--repo', repo, '--task', 'enable the feature flag', '--verify', VERIFY_COMMAND, '--json'];
    const cli = options.cli ?? CLI;
    const coldMs = (await untilFirstRequest(server, args(cli), env)).ms;
    const warm: Launch[] = [];
    const before: Launch[] = [];
    const nodeRuns: number[] = [];
    // The other build first: it finds the baseline this one cached (the key is the same) and probes the host its own way.
    if (options.before) await untilFirstRequest(server, args(options.before), env);
    for (let i = 0; i < runs; i++) {
      warm.push(await untilFirstRequest(server, args(cli), env));
      if (options.before) before.push(await untilFirstRequest(server, args(options.before), env));
      nodeRuns.push(await launchToExit(['-e', '0'], env));
    }
    const warmMs = median(warm.map((l) => l.ms));
    return {
      coldMs, warmRuns: warm.map((l) => l.ms), warmMs, warmCpuMs: median(warm.map((l) => l.cpuMs)), nodeMs: median(nodeRuns), ratio: warmMs / coldMs,
      ...(options.before ? { beforeRuns: before.map((l) => l.ms), beforeMs: median(before.map((l) => l.ms)), beforeCpuMs: median(before.map((l) => l.cpuMs)) } : {}),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Spawn → the server has the first request; then the run is let finish (the model gives up), so runs never overlap. */
async function untilFirstRequest(server: FakeOpenAIServer, args: string[], env: Record<string, string>): Promise<Launch> {
  server.script(GIVE_UP);
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const first = server.nextRequest().then(() => ({ ms: performance.now() - started, cpuMs: cpuMsOf(child.pid) }));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const ms = await Promise.race([first, exit.then((code) => Promise.reject(new Error(`greenfix fix exited ${code} before its first model request: ${stderr.slice(-800)}`)))]);
  const code = await exit;
  if (code !== 1) throw new Error(`greenfix fix (the model gives up) exited ${code}, not 1: ${stderr.slice(-800)}`);
  return ms;
}

/**
 * utime + stime + cutime + cstime of a live process and of its live descendants, in ms (fields
 * 14–17 of /proc/<pid>/stat, at 100 ticks a second): a child still running (the process host that
 * starts commands) is in no one's cutime yet. A process that ends between the reads counts as 0.
 */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
    return own + liveChildren(pid).reduce((sum, child) => sum + cpuMsOf(child), 0);
  } catch {
    return 0;
  }
}

/** Every thread's children (/proc/<pid>/task/<tid>/children): a worker thread's children are listed under its own task. */
function liveChildren(pid: number | undefined): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

async function launchToExit(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
  return performance.now() - started;
}


type Row = [benchmark: string, measured: string, baseline: string, ratio: string, goal: string];

/** Rows in bench/report.ts's table shape: the cached-baseline launch against the first run of the commit, and the bare node floor. */
export function fixFirstRequestRows(f: FixFirstRequestBench): Row[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const range = `${s(Math.min(...f.warmRuns))}–${s(Math.max(...f.warmRuns))}`;
  return [
    [`greenfix fix launch → first model request, cached baseline (median of ${f.warmRuns.length})`, s(f.warmMs), `${s(f.coldMs)} first run (baseline tested)`, f.ratio.toFixed(2), `≤ 0.4 s${f.warmMs <= 400 ? ' (met)' : ' (NOT met)'}`],
    ['  range / bare `node -e 0` launch to exit', range, s(f.nodeMs), (f.warmMs / f.nodeMs).toFixed(1) + 'x', ''],
    ['  CPU used until the request (process and its descendants)', s(f.warmCpuMs), f.beforeCpuMs !== undefined ? `${s(f.beforeCpuMs)} the other build` : '', f.beforeCpuMs !== undefined ? (f.warmCpuMs / f.beforeCpuMs).toFixed(2) : '', ''],
    ...(f.beforeRuns && f.beforeMs !== undefined
      ? [['  against the other build, alternating', s(f.warmMs), `${s(f.beforeMs)} (${s(Math.min(...f.beforeRuns))}–${s(Math.max(...f.beforeRuns))})`, (f.warmMs / f.beforeMs).toFixed(2), ''] as Row]
      : []),
  ];
}
