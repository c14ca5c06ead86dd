import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clipHeadTail } from '../../src/util/clip.js';
import { RegularFileError } from '../../src/util/regular-file.js';
import { runProcess as runFromSource } from '../../src/util/run-process.js';
import type { ProcessRequest, ProcessResult } from '../../src/util/spawn-process.js';
import { isAlive, until } from '../support/processes.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** The compiled module (`npm test` builds first): only there does runProcess start processes from its own thread. */
const DIST = resolve('dist/src/util');
type Run = (req: ProcessRequest) => Promise<ProcessResult>;
interface Dist {
  runProcess: Run;
  RegularFileError: typeof RegularFileError;
}
const dist = async (): Promise<Dist> => {
  if (!existsSync(join(DIST, 'process-thread.js'))) throw new Error(`${DIST}/process-thread.js is missing: run npm run build first`);
  const { runProcess } = (await import(pathToFileURL(join(DIST, 'run-process.js')).href)) as { runProcess: Run };
  const file = (await import(pathToFileURL(join(DIST, 'regular-file.js')).href)) as { RegularFileError: typeof RegularFileError };
  return { runProcess, RegularFileError: file.RegularFileError };
};

describe.each([
  ['from the calling thread (TypeScript sources)', async (): Promise<Dist> => ({ runProcess: runFromSource, RegularFileError })],
  ['from the process thread (compiled)', dist],
])('runProcess %s', (_how, load) => {
  let runProcess: Run;
  let Refusal: typeof RegularFileError;
  let dir: string;
  beforeAll(async () => ({ runProcess, RegularFileError: Refusal } = await load()));
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gf-run-process-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns the real exit code and output', async () => {
    const r = await runProcess({ argv: ['bash', '-c', 'echo out; echo err >&2; exit 7'], cwd: '/', env, timeoutMs: 10_000 });
    expect(r).toMatchObject({ exitCode: 7, timedOut: false, stdout: 'out\n', stderr: 'err\n', truncated: false });
  });

  it('caps output while it streams', async () => {
    const r = await runProcess({ argv: ['bash', '-c', 'yes | head -c 50000000'], cwd: '/', env, timeoutMs: 30_000, headBytes: 100, tailBytes: 100 });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.outputBytes).toBe(50_000_000);
    expect(r.stdout).toMatch(/\[49999800 bytes elided\]/);
    expect(r.stdout.length).toBeLessThan(300);
  });

  it('kills the whole process group on timeout', async () => {
    const r = await runProcess({ argv: ['bash', '-c', 'sleep 300 & echo $! ; wait'], cwd: '/', env, timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    const pid = Number(r.stdout.trim());
    await until(() => !isAlive(pid), `the group's sleep ${pid} to die`, 5_000);
  });

  it('kills the whole group when the signal aborts', async () => {
    const abort = new AbortController();
    const pidFile = join(dir, 'pid');
    const running = runProcess({ argv: ['bash', '-c', `sleep 300 & echo $! > ${pidFile}; wait`], cwd: '/', env, timeoutMs: 60_000, signal: abort.signal });
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await new Promise((r) => setImmediate(r));
    abort.abort();
    const r = await running;
    expect(r).toMatchObject({ aborted: true, timedOut: false });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until(() => !isAlive(pid), `the group's sleep ${pid} to die`, 5_000);
  });

  it('feeds stdin and each extra descriptor its bytes', async () => {
    const r = await runProcess({ argv: ['bash', '-c', 'cat; cat <&3; cat <&4'], cwd: '/', env, timeoutMs: 10_000, stdin: 'in,', extraFds: [Buffer.from('three,'), Buffer.from([0x66, 0x6f, 0x75, 0x72])] });
    expect(r.stdout).toBe('in,three,four');
  });

  it('writes the output file, and refuses one that is a symlink with the same typed error', async () => {
    const out = join(dir, 'out.txt');
    await runProcess({ argv: ['bash', '-c', 'echo a; echo b >&2'], cwd: '/', env, timeoutMs: 10_000, outputFile: out });
    expect(readFileSync(out, 'utf8')).toMatch(/^(a\nb\n|b\na\n)$/);
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'));
    const refused = await runProcess({ argv: ['true'], cwd: '/', env, timeoutMs: 10_000, outputFile: join(dir, 'link') }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ reason: 'symlink', path: join(dir, 'link') });
  });

  it('rejects a program that does not exist with its errno code', async () => {
    const e = await runProcess({ argv: ['/nonexistent/greenfix-no-such-program'], cwd: '/', env, timeoutMs: 10_000 }).catch((error: unknown) => error);
    expect(e).toMatchObject({ code: 'ENOENT', message: expect.stringContaining('ENOENT') });
  });

  it('does not inherit the parent environment', async () => {
    process.env.GREENFIX_TEST_SECRET = 'hunter2';
    const r = await runProcess({ argv: ['bash', '-c', 'env'], cwd: '/', env, timeoutMs: 10_000 });
    delete process.env.GREENFIX_TEST_SECRET;
    expect(r.stdout).not.toContain('hunter2');
  });
});

describe('runProcess from the process thread (compiled)', () => {
  it('starts processes at nice 10: below greenfix\'s own thread, which keeps its nice', async () => {
    const { runProcess } = await dist();
    const r = await runProcess({ argv: ['bash', '-c', 'ps -o ni= -p $$'], cwd: '/', env, timeoutMs: 10_000 });
    expect(Number(r.stdout.trim())).toBe(Math.min(19, getPriority() + 10));
    expect(getPriority()).toBe(getPriority(process.pid));
  });

  it("runs the child while the caller's thread is busy: the child's output is drained, not left for the caller's event loop", async () => {
    const { runProcess } = await dist();
    const dir = mkdtempSync(join(tmpdir(), 'gf-run-process-'));
    try {
      const done = join(dir, 'done');
      // 1 MB through a 64 KB pipe: the child finishes only if someone reads while this thread does not.
      const running = runProcess({ argv: ['bash', '-c', `head -c 1000000 /dev/zero; echo > ${done}`], cwd: '/', env, timeoutMs: 60_000 });
      const deadline = Date.now() + 30_000;
      while (!existsSync(done) && Date.now() < deadline); // this thread never yields until the child is done
      expect(existsSync(done)).toBe(true);
      expect((await running).outputBytes).toBe(1_000_001 - 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('clipHeadTail', () => {
  it('keeps head and tail and says how much went', () => {
    const text = 'a'.repeat(1000) + 'z'.repeat(1000);
    const clipped = clipHeadTail(text, 200);
    expect(clipped.length).toBeLessThanOrEqual(200);
    expect(clipped.startsWith('a')).toBe(true);
    expect(clipped.endsWith('z')).toBe(true);
    expect(clipped).toMatch(/\[\d+ bytes elided\]/);
  });
  it('leaves short text alone', () => expect(clipHeadTail('short', 200)).toBe('short'));
});
