import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TempDirs } from '../support/temp-dir.js';
import { isRoot, sandboxWorkspace } from './fixtures.js';

/**
 * Attack: the process that starts greenfix holds descriptor 200 open on a root-only file (a shell's
 * `200<secret`, a supervisor's socket). Node marks its own descriptors close-on-exec, not inherited
 * ones, and libuv's spawn closes nothing: without greenfix closing them, `cat <&200` inside the
 * sandbox printed the file. Runs greenfix's real sandboxes (dist/) in a child holding fd 200.
 */
const temp = new TempDirs();
afterEach(() => temp.cleanup());

const SECRET = 'root-only-secret-7f3a';
const PROBE = "ls /proc/self/fd | sort -n | paste -sd' '; cat <&200 && echo READ";

interface Seen {
  mode: string;
  network: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs PROBE through createSandbox in a child process that has `fd 200` open on `secret`. */
function probeFromChild(workspace: string, secret: string, sandboxMode: 'on' | 'off'): Promise<Seen[]> {
  const module = resolve('dist/src/sandbox/create-sandbox.js');
  if (!existsSync(module)) throw new Error('run `npm run build` first: this test spawns dist/');
  const script = `const { createSandbox } = await import(${JSON.stringify(module)});
    const sandbox = await createSandbox({ env: { PATH: ${JSON.stringify(process.env.PATH)}, GREENFIX_SANDBOX: ${JSON.stringify(sandboxMode)} }, log: () => undefined });
    const seen = [];
    for (const network of ${sandboxMode === 'on' ? '[false, true]' : '[false]'}) {
      const r = await sandbox.run({ command: ${JSON.stringify(PROBE)}, workspace: ${JSON.stringify(workspace)}, timeoutMs: 30000, network });
      seen.push({ mode: ${JSON.stringify(sandboxMode)}, network, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
    }
    console.log(JSON.stringify(seen));`;
  const fd = openSync(secret, 'r');
  const stdio = ['ignore', 'pipe', 'pipe', ...Array.from({ length: 197 }, () => 'ignore' as const), fd] as const;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: [...stdio] });
  closeSync(fd);
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(JSON.parse(out.trim().split('\n').at(-1) ?? '[]') as Seen[]) : fail(new Error(`child exited ${code}: ${err}`))));
  });
}

function rootOnlySecret(): string {
  const dir = temp.make('greenfix-secret-');
  const file = join(dir, 'secret');
  writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
  return file;
}

describe('descriptors a sandboxed command starts with', () => {
  (isRoot ? it : it.skip)('the bwrap sandbox (with and without setup network): 0, 1, 2 only; an inherited fd 200 on a root-only file is closed', async () => {
    const secret = rootOnlySecret();
    const seen = await probeFromChild(await sandboxWorkspace(temp), secret, 'on');
    expect(seen).toHaveLength(2);
    for (const run of seen) {
      // ls's own directory descriptor is the lowest free one: 3.
      expect({ network: run.network, fds: run.stdout.split('\n')[0] }).toEqual({ network: run.network, fds: '0 1 2 3' });
      expect(run.stdout).not.toContain(SECRET);
      expect(run.stdout).not.toContain('READ');
      expect(run.stderr).toMatch(/200: Bad file descriptor/);
    }
  });

  it('the unsandboxed runner (GREENFIX_SANDBOX=off) passes no inherited descriptor either', async () => {
    const secret = rootOnlySecret();
    const [run] = await probeFromChild(await sandboxWorkspace(temp), secret, 'off');
    expect(run?.stdout.split('\n')[0]).toBe('0 1 2 3');
    expect(run?.stdout).not.toContain(SECRET);
    expect(run?.stderr).toMatch(/200: Bad file descriptor/);
  });
});
