import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_SECRET, startAppWorld } from './app-fixture.js';
import { deliver, labeled } from './deliveries.js';
import { processRss } from './peak-rss.js';

export interface ServeBusyRssBench {
  /** Highest VmRSS (MB) of `greenfix serve` sampled every 100 ms while one job runs its agent loop. */
  busyMb: number;
  /** VmHWM (MB): the process's own peak up to the end of the sampling. */
  busyPeakMb: number;
  samples: number;
}

const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');
/** Each step runs a command in the sandbox (varied, or stuck detection ends the run). */
const STEPS = Array.from({ length: 40 }, (_, i) => ({ tool_calls: [{ name: 'run', arguments: { command: `sleep 0.5; echo step ${i}` } }] }));

/** `greenfix serve` as deployed (the built CLI) against the bench's fake GitHub: one labelled issue, sampled while its job runs. */
export async function benchServeBusyRss(options: { env: Record<string, string | undefined>; sampleMs?: number }): Promise<ServeBusyRssBench> {
  const world = await startAppWorld();
  writeFileSync(join(world.dir, 'script.json'), JSON.stringify({ turns: STEPS }));
  const api = new URL(world.github.baseUrl);
  const env: Record<string, string> = {
    PATH: options.env.PATH ?? '/usr/bin:/bin',
    HOME: world.dir,
    APP_ID: String(world.credentials.appId),
    PRIVATE_KEY: world.credentials.privateKey,
    WEBHOOK_SECRET: BENCH_SECRET,
    GHE_HOST: api.host,
    GHE_PROTOCOL: 'http',
    PORT: '0',
    HOST: '127.0.0.1',
    GREENFIX_WORKDIR: join(world.dir, 'work'),
    GREENFIX_MODEL: `scripted:${join(world.dir, 'script.json')}`,
    LOG_LEVEL: 'info',
    ...(options.env.GREENFIX_SANDBOX ? { GREENFIX_SANDBOX: options.env.GREENFIX_SANDBOX } : {}),
  };
  const child = spawn(process.execPath, [CLI, 'serve'], { cwd: world.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.includes('greenfix is running'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.on('close', (code) => reject(new Error(`greenfix serve exited ${code} before it was running: ${out.slice(-500)}`)));
    });
    const answer = await deliver(`${url}/api/github/webhooks`, { id: 'busy-1', payload: labeled(world.repositories[0]!, 1, 'agent-fix') });
    if (answer.status !== 200) throw new Error(`serve bench: delivery answered ${answer.status}`);
    // The job is in its agent loop once its status comment counts a step (40 steps of 0.5 s: it runs on past the sampling).
    const deadline = Date.now() + 60_000;
    while (!world.state.comments.some((c) => c.issue === 1 && /\b[1-9]\d* \/ \d+ steps/.test(c.body))) {
      if (Date.now() > deadline) throw new Error('serve bench: the job did not start its agent loop within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let busyMb = 0;
    let samples = 0;
    const until = Date.now() + (options.sampleMs ?? 6_000);
    while (Date.now() < until) {
      busyMb = Math.max(busyMb, processRss(child.pid!).rssMb);
      samples += 1;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { busyMb, busyPeakMb: processRss(child.pid!).peakMb, samples };
  } finally {
    child.kill('SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
    await world.close();
  }
}
