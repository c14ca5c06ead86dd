import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_CLI as CLI, cliNodeFlags } from './cli-node-flags.js';
import { sessionScript } from './session-script.js';
import { makeSourceRepo, VERIFY_COMMAND } from './source-repo.js';

export interface PeakRssBench {
  /** Peak RSS (MB) of `greenfix fix` over a ten-step scripted session (GNU time's %M). */
  fixPeakMb: number;
  fixSteps: number;
  fixExit: number | null;
}


/** `greenfix fix` as a user runs it (the built CLI, a real repository, the scripted model), under /usr/bin/time. */
export async function benchFixPeakRss(options: { steps: number; env: Record<string, string | undefined>; /** Default this build's CLI. */ cli?: string }): Promise<PeakRssBench> {
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-rss-'));
  chmodSync(dir, 0o755); // the sandbox uid passes through to the worktree
  try {
    const repo = join(dir, 'repo');
    const paths = await makeSourceRepo(repo, { files: 40, minLines: 150, maxLines: 600 });
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ turns: sessionScript(paths, options.steps) }));
    const cli = options.cli ?? CLI;
    const args = ['-f', 'greenfix-maxrss-kb=%M', process.execPath, ...cliNodeFlags(cli), cli, 'fix', '--repo', repo, '--task', 'enable the feature flag', '--verify', VERIFY_COMMAND, '--model', `scripted:${script}`, '--json'];
    const env = { PATH: options.env.PATH ?? '/usr/bin:/bin', HOME: dir, GREENFIX_WORKDIR: join(dir, 'work'), ...(options.env.GREENFIX_SANDBOX ? { GREENFIX_SANDBOX: options.env.GREENFIX_SANDBOX } : {}) };
    const { code, stderr } = await run('/usr/bin/time', args, env);
    const kb = /greenfix-maxrss-kb=(\d+)/.exec(stderr)?.[1];
    if (code !== 0) throw new Error(`greenfix fix exited ${code}; stderr ended with: ${stderr.slice(-800)}`);
    if (!kb) throw new Error(`no peak RSS from /usr/bin/time; stderr ended with: ${stderr.slice(-500)}`);
    return { fixPeakMb: Number(kb) / 1024, fixSteps: options.steps, fixExit: code };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** VmRSS and VmHWM (peak) of a live process, in MB. */
export function processRss(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export interface ServeRssBench {
  /** RSS (MB) of an idle `greenfix serve` (webhook server, SQLite queue, two idle workers) 3 s after it is up. */
  idleMb: number;
  idlePeakMb: number;
}

/** `greenfix serve` as deployed (the built CLI), idle: no delivery, no job; then SIGTERM. */
export async function benchServeIdleRss(options: { env: Record<string, string | undefined>; privateKey: string }): Promise<ServeRssBench> {
  const dir = mkdtempSync(join(tmpdir(), 'greenfix-serve-rss-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'script.json'), JSON.stringify({ turns: [] }));
  const env: Record<string, string> = {
    PATH: options.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    APP_ID: '1',
    PRIVATE_KEY: options.privateKey,
    WEBHOOK_SECRET: 'bench-secret',
    PORT: '0',
    HOST: '127.0.0.1',
    GREENFIX_WORKDIR: join(dir, 'work'),
    GREENFIX_MODEL: `scripted:${join(dir, 'script.json')}`,
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [...cliNodeFlags(CLI), CLI, 'serve'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('greenfix is running')) resolve();
      });
      child.on('close', (code) => reject(new Error(`greenfix serve exited ${code} before it was running: ${out.slice(-500)}`)));
    });
    // Idle means idle: the measurement is what the process holds after start-up work settled.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { rssMb, peakMb } = processRss(child.pid!);
    return { idleMb: rssMb, idlePeakMb: peakMb };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
