import { spawn } from 'node:child_process';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SandboxCapacityError, SandboxConfigError } from '../../src/sandbox/errors.js';
import { createUidPool } from '../../src/sandbox/uid-leases.js';
import { DEFAULT_UID_RANGE, parseUidRange } from '../../src/sandbox/uid-range.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());
const range = { first: 300_000, last: 300_003 };
const idle = { uidBusy: () => false };

describe('uid leases', () => {
  it('never hands one uid to two holders, and gives it back on release', async () => {
    const dir = temp.make('greenfix-uids-');
    const pool = createUidPool({ range, dir, ...idle });
    const leases = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(new Set(leases.map((l) => l.owner.uid)).size).toBe(4);
    expect(leases.every((l) => l.owner.gid === l.owner.uid)).toBe(true);
    await expect(pool.acquire()).rejects.toBeInstanceOf(SandboxCapacityError);
    leases[2]!.release();
    expect((await pool.acquire()).owner.uid).toBe(leases[2]!.owner.uid);
  });

  it('two pools on one directory (two workers on one machine) share the range', async () => {
    const dir = temp.make('greenfix-uids-');
    const a = createUidPool({ range, dir, ...idle });
    const b = createUidPool({ range, dir, ...idle });
    const got = await Promise.all([a.acquire(), b.acquire(), a.acquire(), b.acquire()]);
    expect(new Set(got.map((l) => l.owner.uid)).size).toBe(4);
    await expect(b.acquire()).rejects.toBeInstanceOf(SandboxCapacityError);
  });

  it("takes over a dead holder's lease, never a live one's", async () => {
    const dir = temp.make('greenfix-uids-');
    const dead = new Set<number>();
    const isAlive = (pid: number) => !dead.has(pid);
    const crashed = createUidPool({ range: { first: 300_000, last: 300_000 }, dir, pid: 424242, isAlive, ...idle });
    const held = await crashed.acquire();
    const mine = createUidPool({ range: { first: 300_000, last: 300_000 }, dir, isAlive, ...idle });
    await expect(mine.acquire()).rejects.toBeInstanceOf(SandboxCapacityError);
    dead.add(424242);
    expect((await mine.acquire()).owner.uid).toBe(held.owner.uid);
    // The dead holder's late release does not free the new holder's lease.
    held.release();
    expect(existsSync(join(dir, '300000'))).toBe(true);
  });

  it('a lease file naming a pid that was reused by another process counts as dead (pid + start time)', async () => {
    const dir = temp.make('greenfix-uids-');
    writeFileSync(join(dir, '300000'), JSON.stringify({ pid: process.pid, start: 1, token: 'old' }));
    const pool = createUidPool({ range: { first: 300_000, last: 300_000 }, dir, ...idle });
    expect((await pool.acquire()).owner.uid).toBe(300_000);
  });

  it('skips a uid that still has processes, and prefers the uid a resumed worktree already has', async () => {
    const dir = temp.make('greenfix-uids-');
    const pool = createUidPool({ range, dir, uidBusy: (uid) => uid === 300_000 });
    expect((await pool.acquire()).owner.uid).toBe(300_001);
    expect((await pool.acquire(300_003)).owner.uid).toBe(300_003);
    expect((await pool.acquire(5)).owner.uid).toBe(300_002);
  });

  it('breaks a mutex left by a process that died holding it, once it is stale', async () => {
    const dir = temp.make('greenfix-uids-');
    const pool = createUidPool({ range, dir, ...idle });
    writeFileSync(join(dir, '.mutex'), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, '.mutex'), old, old);
    expect((await pool.acquire()).owner.uid).toBe(300_000);
  });

  it('is exclusive across real processes racing for the same directory', async () => {
    const dir = temp.make('greenfix-uids-');
    const module = resolve('dist/src/sandbox/uid-leases.js');
    if (!existsSync(module)) throw new Error('run `npm run build` first: this test spawns dist/');
    const script = `const { createUidPool } = await import(${JSON.stringify(module)});
      const pool = createUidPool({ range: { first: 300000, last: 300019 }, dir: ${JSON.stringify(dir)}, uidBusy: () => false });
      const got = await Promise.all(Array.from({ length: 5 }, () => pool.acquire()));
      console.log(JSON.stringify(got.map((l) => l.owner.uid)));
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));`;
    // Each holds its leases (stays alive) until every one has printed what it got.
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const outputs = children.map(
      (child) =>
        new Promise<number[]>((done, fail) => {
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            if (out.endsWith('\n')) done(JSON.parse(out) as number[]);
          });
          child.on('close', (code) => fail(new Error(`exited early: ${code}`)));
        }),
    );
    const all = (await Promise.all(outputs)).flat();
    await Promise.all(children.map((child) => new Promise((done) => (child.on('close', done), child.stdin.end()))));
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(20);
    // The four processes exited holding their leases: a fifth takes them over.
    const pool = createUidPool({ range: { first: 300_000, last: 300_019 }, dir, ...idle });
    expect((await pool.acquire()).owner.uid).toBe(300_000);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('GREENFIX_SANDBOX_UIDS', () => {
  it('defaults to a block far from login users, nobody and subordinate ids', () => {
    expect(parseUidRange(undefined)).toEqual(DEFAULT_UID_RANGE);
    expect(parseUidRange(' ')).toEqual(DEFAULT_UID_RANGE);
    expect(parseUidRange('200000-200999')).toEqual({ first: 200_000, last: 200_999 });
  });

  it.each([
    ['200000', /FIRST-LAST/],
    ['200999-200000', /not be above/],
    ['0-10', /system uids/],
    ['60000-70000', /nobody/],
    ['2147483000-2147483647', /at most/],
    ['100000-300000', /at most 65536/],
    ['a-b', /FIRST-LAST/],
  ])('refuses %s', (value, why) => {
    expect(() => parseUidRange(value)).toThrow(SandboxConfigError);
    expect(() => parseUidRange(value)).toThrow(why);
  });
});
