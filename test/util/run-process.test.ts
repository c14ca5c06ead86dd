import { runProcess } from '../../src/util/run-process.js';
import { clipHeadTail } from '../../src/util/clip.js';

import { readFileSync } from 'node:fs';

/** Alive = exists and is not a zombie waiting for a reaper. */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('runProcess', () => {
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
    expect(isAlive(pid)).toBe(false);
  });

  it('does not inherit the parent environment', async () => {
    process.env.GREENFIX_TEST_SECRET = 'hunter2';
    const r = await runProcess({ argv: ['bash', '-c', 'env'], cwd: '/', env, timeoutMs: 10_000 });
    delete process.env.GREENFIX_TEST_SECRET;
    expect(r.stdout).not.toContain('hunter2');
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
