import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProcessRequest, ProcessResult } from '../../src/util/spawn-process.js';
import { isAlive, until } from '../support/processes.js';

/**
 * The compiled runProcess (`npm test` builds first) starts processes from a small host process of
 * its own (util/process-host.ts), not by forking greenfix: what that host sees, and that it never
 * outlives greenfix nor takes greenfix down with it.
 */
const RUN_PROCESS = pathToFileURL(resolve('dist/src/util/run-process.js')).href;
type Run = (req: ProcessRequest) => Promise<ProcessResult>;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** The file's contents once a command has written them whole (a line ending in a newline). */
const written = (file: string) => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n');

describe('the process host (compiled runProcess)', () => {
  let runProcess: Run;
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(resolve('dist/src/util/process-host.js'))) throw new Error('dist/ is missing: run npm run build first');
    ({ runProcess } = (await import(RUN_PROCESS)) as { runProcess: Run });
  });
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gf-process-host-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("forks commands from a process of its own that holds none of greenfix's environment", async () => {
    process.env.GREENFIX_TEST_HOST_SECRET = 'hunter3';
    try {
      const r = await runProcess({ argv: ['bash', '-c', 'echo $PPID'], cwd: '/', env, timeoutMs: 10_000 });
      const host = Number(r.stdout.trim());
      expect(host).not.toBe(process.pid);
      expect(readFileSync(`/proc/${host}/status`, 'utf8')).toMatch(new RegExp(`^PPid:\\s+${process.pid}$`, 'm'));
      expect(readFileSync(`/proc/${host}/cmdline`, 'utf8')).toContain('process-thread.js');
      // Only what Node's IPC channel itself needs (NODE_CHANNEL_FD, _SERIALIZATION_MODE).
      const names = readFileSync(`/proc/${host}/environ`, 'utf8').split('\0').filter(Boolean).map((v) => v.split('=')[0]);
      expect(names.every((name) => name?.startsWith('NODE_CHANNEL_'))).toBe(true);
      // The next command comes from the same host: one per greenfix process, not one per command.
      const again = await runProcess({ argv: ['bash', '-c', 'echo $PPID'], cwd: '/', env, timeoutMs: 10_000 });
      expect(Number(again.stdout.trim())).toBe(host);
    } finally {
      delete process.env.GREENFIX_TEST_HOST_SECRET;
    }
  });

  it('fails the calls of a host that died and starts a new one for the next call', async () => {
    const ids = join(dir, 'ids');
    const running = runProcess({ argv: ['bash', '-c', `echo $PPID $$ > ${ids}; exec sleep 300`], cwd: '/', env, timeoutMs: 60_000 });
    await until(() => written(ids), 'the command to start');
    const [host, command] = readFileSync(ids, 'utf8').trim().split(' ').map(Number) as [number, number];
    try {
      process.kill(host, 'SIGKILL');
      await expect(running).rejects.toThrow(/host process .*process-thread\.js ended .*the call's result is unknown/);
      const next = await runProcess({ argv: ['bash', '-c', 'echo $PPID'], cwd: '/', env, timeoutMs: 10_000 });
      expect(next.exitCode).toBe(0);
      expect(Number(next.stdout.trim())).not.toBe(host);
    } finally {
      if (isAlive(command)) process.kill(command, 'SIGKILL');
    }
  });

  it('goes when greenfix is killed (kill -9), and kills the commands it was running', async () => {
    const ids = join(dir, 'ids');
    const script = `const { runProcess } = await import(${JSON.stringify(RUN_PROCESS)});
      await runProcess({ argv: ['bash', '-c', 'echo $PPID $$ > ${ids}; exec sleep 300'], cwd: '/', env: { PATH: ${JSON.stringify(env.PATH)} }, timeoutMs: 600000 });`;
    const greenfix = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const exited = new Promise((r) => greenfix.once('exit', r));
    try {
      await until(() => written(ids), 'the command to start');
      const [host, command] = readFileSync(ids, 'utf8').trim().split(' ').map(Number) as [number, number];
      expect(isAlive(host) && isAlive(command)).toBe(true);
      greenfix.kill('SIGKILL');
      await exited;
      await until(() => !isAlive(host) && !isAlive(command), 'the host and its command to go');
    } finally {
      greenfix.kill('SIGKILL');
    }
  });
});
