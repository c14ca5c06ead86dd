import { chownSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeExit } from '../../src/agent/tools/command-output.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { SandboxLimitError } from '../../src/sandbox/errors.js';
import type { JobSandbox, Sandbox } from '../../src/sandbox/types.js';
import { createUnsandboxed } from '../../src/sandbox/unsandboxed.js';
import { isRoot, waitFor, sandboxWorkspace } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
const quiet = () => undefined;
const jobs: JobSandbox[] = [];
afterEach(async () => {
  for (const job of jobs.splice(0)) await job.release();
  temp.cleanup();
});

async function job(sandbox: Sandbox): Promise<{ job: JobSandbox; workspace: string }> {
  const workspace = await sandboxWorkspace(temp);
  const leased = await sandbox.forJob({ workspace });
  jobs.push(leased);
  return { job: leased, workspace };
}

const python = (code: string) => `python3 -c '${code}'`;
/** errno of one raw syscall, printed by python's ctypes (0 when it succeeded). */
const syscall = (nr: number, ...args: number[]) =>
  python(`import ctypes; libc = ctypes.CDLL(None, use_errno=True); r = libc.syscall(${[nr, ...args].join(', ')}); print(ctypes.get_errno() if r == -1 else 0)`);
const EPERM = '1';

describe('a uid of its own per job', () => {
  (isRoot ? it : it.skip)('gives concurrent jobs different uids, runs every command as it and hands the worktree to it', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet });
    const a = await job(sandbox);
    const b = await job(sandbox);
    expect(a.job.owner?.uid).not.toBe(b.job.owner?.uid);
    expect(a.job.owner?.uid).not.toBe(65534);
    const [ra, rb] = await Promise.all([a.job.run({ command: 'id -u; touch made', workspace: a.workspace, timeoutMs: 10_000 }), b.job.run({ command: 'id -u', workspace: b.workspace, timeoutMs: 10_000 })]);
    expect(ra.stdout).toBe(`${a.job.owner?.uid}\n`);
    expect(rb.stdout).toBe(`${b.job.owner?.uid}\n`);
    expect(statSync(join(a.workspace, 'made')).uid).toBe(a.job.owner?.uid);
    expect(statSync(a.workspace).uid).toBe(a.job.owner?.uid);
    // One job cannot touch the other's worktree.
    const cross = await a.job.run({ command: `touch ${b.workspace}/x`, workspace: a.workspace, timeoutMs: 10_000 });
    expect(cross.exitCode).not.toBe(0);
    expect(existsSync(join(b.workspace, 'x'))).toBe(false);
  });

  (isRoot ? it : it.skip)('a resumed job keeps its uid when free, and a taken one re-chowns the worktree to the new uid', async () => {
    // A range and lease directory of this test's own: which uid it gets must not depend on other suites.
    const base = 2_146_000_000 + (process.pid % 100_000) * 10;
    const env = { PATH: process.env.PATH, GREENFIX_SANDBOX_UIDS: `${base}-${base + 9}` };
    const sandbox = await createSandbox({ env, log: quiet, uidLeaseDir: temp.make('greenfix-leases-') });
    const workspace = await sandboxWorkspace(temp);
    writeFileSync(join(workspace, 'file'), 'x');
    const first = await sandbox.forJob({ workspace });
    const uid = first.owner!.uid;
    await first.run({ command: 'mkdir -p deep/er && touch deep/er/made', workspace, timeoutMs: 10_000 });
    await first.release();
    const again = await sandbox.forJob({ workspace });
    jobs.push(again);
    expect(again.owner?.uid).toBe(uid);
    await again.release();
    // Another job takes that uid meanwhile (its worktree is owned by it, so it is preferred).
    const elsewhere = await sandboxWorkspace(temp);
    chownSync(elsewhere, uid, uid);
    const thief = await sandbox.forJob({ workspace: elsewhere });
    jobs.push(thief);
    expect(thief.owner?.uid).toBe(uid);
    const moved = await sandbox.forJob({ workspace });
    jobs.push(moved);
    expect(moved.owner?.uid).not.toBe(uid);
    for (const p of ['.', 'file', 'deep/er', 'deep/er/made']) expect(statSync(join(workspace, p)).uid).toBe(moved.owner?.uid);
    const r = await moved.run({ command: 'echo more >> deep/er/made && echo ok', workspace, timeoutMs: 10_000 });
    expect(r.stdout).toBe('ok\n');
  });
  (isRoot ? it : it.skip)('a leased uid has a name inside: id -un, os.userInfo() and getpass work, and the host passwd is otherwise unchanged', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet });
    const { job: leased, workspace } = await job(sandbox);
    const uid = leased.owner!.uid;
    const r = await leased.run({
      command: `id -un; node -e 'const u = require("os").userInfo(); console.log(u.username, u.uid, u.homedir)'; ${python('import getpass; print(getpass.getuser())')}; grep -c '^root:' /etc/passwd; getent group ${leased.owner!.gid} | cut -d: -f1`,
      workspace,
      timeoutMs: 20_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`greenfix\ngreenfix ${uid} /tmp/home\ngreenfix\n1\ngreenfix\n`);
  });
});

describe('the setup step of a job', () => {
  (isRoot ? it : it.skip)("reaches greenfix's egress proxy as the job's own uid (the proxy's socket is that uid's)", async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet });
    const { job: j, workspace } = await job(sandbox);
    const connect = 'exec 3<>/dev/tcp/127.0.0.1/${HTTPS_PROXY##*:} && printf "CONNECT example.invalid:443 HTTP/1.1\\r\\nHost: example.invalid:443\\r\\n\\r\\n" >&3 && head -1 <&3';
    const r = await j.run({ command: `id -u; ${connect}`, workspace, network: true, timeoutMs: 20_000 });
    expect(r.stdout).toBe(`${j.owner?.uid}\nHTTP/1.1 403 Forbidden\r\n`);
    expect(r.egress?.refused).toEqual([expect.objectContaining({ target: 'example.invalid:443' })]);
  });
});

describe('processes: a cgroup cap per command', () => {
  (isRoot ? it : it.skip)('a fork bomb in one job stops at its cap, and a concurrent job still starts processes', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, limits: { processes: 40 } });
    const bomb = await job(sandbox);
    const other = await job(sandbox);
    // Forks until refused, says so, then holds its processes until told to stop.
    const holdAtCap = `perl -e 'my $n = 0; while ($n < 5000) { my $p = fork; last unless defined $p; if (!$p) { sleep 60; exit } $n++ } open my $f, ">", "capped"; print $f "$n\\n"; close $f; until (-e "release") { select undef, undef, undef, 0.02 } print "forked $n\\n"'`;
    const bombing = bomb.job.run({ command: holdAtCap, workspace: bomb.workspace, timeoutMs: 30_000 });
    await waitFor(() => existsSync(join(bomb.workspace, 'capped')), 20_000);
    const forks = `perl -e 'for (1..30) { my $p = fork; die "fork failed at $_\\n" unless defined $p; if (!$p) { sleep 2; exit } } print "all forked\\n"'`;
    const r = await other.job.run({ command: forks, workspace: other.workspace, timeoutMs: 20_000 });
    writeFileSync(join(bomb.workspace, 'release'), '');
    const b = await bombing;
    expect(r.stdout).toBe('all forked\n');
    const forked = Number(readFileSync(join(bomb.workspace, 'capped'), 'utf8'));
    expect(forked).toBeLessThan(40);
    expect(b.stdout).toBe(`forked ${forked}\n`);
  });
});

describe('memory: a cgroup cap per command', () => {
  (isRoot ? it : it.skip)('kills a 3 GB allocation under a 512 MB cap, says so in one line, and the next command runs', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_MEMORY_MB: '512' }, log: quiet });
    const { job: j, workspace } = await job(sandbox);
    const r = await j.run({ command: `node -e 'const b = Buffer.alloc(3 * 1024 ** 3, 1); console.log("allocated", b.length)'`, workspace, timeoutMs: 60_000 });
    expect(r.limit).toEqual({ kind: 'memory', limitMb: 512 });
    expect(r.stdout).not.toMatch(/allocated/);
    expect(describeExit(r, 60)).toBe('killed: memory limit 512 MB');
    const next = await j.run({ command: `node -e 'console.log(Buffer.alloc(64 * 1024 ** 2, 1).length)'`, workspace, timeoutMs: 30_000 });
    expect(next).toMatchObject({ exitCode: 0, stdout: `${64 * 1024 ** 2}\n` });
    expect(next.limit).toBeUndefined();
  });
});

describe('seccomp', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet });
  });

  it('refuses bpf and keyctl with EPERM, which outside the sandbox answer otherwise', async () => {
    const workspace = await sandboxWorkspace(temp);
    // bpf with an unknown command: EINVAL when the kernel looks at it; keyctl(GET_KEYRING_ID, session): works.
    const probes = `${syscall(321, 9999, 0, 0)}; ${syscall(250, 0, -3, 0)}`;
    const outside = await createUnsandboxed().run({ command: probes, workspace, timeoutMs: 10_000 });
    expect(outside.stdout.split('\n').slice(0, 2)).not.toContain(EPERM);
    const inside = await sandbox.run({ command: probes, workspace, timeoutMs: 10_000 });
    expect(inside.stdout).toBe(`${EPERM}\n${EPERM}\n`);
  });

  it('refuses the x32 ABI and mount', async () => {
    const workspace = await sandboxWorkspace(temp);
    const r = await sandbox.run({ command: `${syscall(0x40000000 + 39)}; ${syscall(165, 0, 0, 0)}`, workspace, timeoutMs: 10_000 });
    expect(r.stdout).toBe(`${EPERM}\n${EPERM}\n`);
  });

  it('leaves ordinary work alone: git, node, npm test', async () => {
    const workspace = await sandboxWorkspace(temp);
    writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: 'node -e "console.log(21 * 2)"' } }));
    const command = 'git init -q . && git -c user.name=t -c user.email=t@e commit -q --allow-empty -m x && git log --format=%s && npm test --silent';
    const r = await sandbox.run({ command, workspace, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'x\n42\n' });
  });
});

describe('disk watchdog', () => {
  it('stops a command writing past the cap, ends the job with the disk reason and refuses what follows', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_DISK_MB: '5' }, log: quiet, limits: { diskPollMs: 50 } });
    const { job: j, workspace } = await job(sandbox);
    const r = await j.run({ command: 'head -c 20000000 /dev/urandom > big && echo wrote && sleep 30', workspace, timeoutMs: 30_000 });
    expect(r.limit).toEqual({ kind: 'disk', limitMb: 5 });
    expect(r.timedOut).toBe(false);
    expect(describeExit(r, 30)).toMatch(/^killed: disk limit 5 MB/);
    expect(j.signal.aborted).toBe(true);
    expect(j.signal.reason).toBeInstanceOf(SandboxLimitError);
    expect(j.signal.reason).toMatchObject({ reason: 'disk', message: expect.stringMatching(/disk limit reached/) });
    await expect(j.run({ command: 'true', workspace, timeoutMs: 10_000 })).rejects.toBeInstanceOf(SandboxLimitError);
  });

  it('catches a command that wrote past the cap and exited before any walk: the job stops right after', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_DISK_MB: '5' }, log: quiet, limits: { diskPollMs: 60_000 } });
    const { job: j, workspace } = await job(sandbox);
    const stopped = new Promise((resolve) => j.signal.addEventListener('abort', resolve, { once: true }));
    const r = await j.run({ command: 'head -c 20000000 /dev/urandom > big', workspace, timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
    await stopped;
    expect(j.signal.reason).toMatchObject({ reason: 'disk', limitMb: 5 });
  });

  it('counts what the package cache (a writable bind) grows by while setup runs, not what it held before', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_DISK_MB: '5' }, log: quiet, limits: { diskPollMs: 50 } });
    const { job: j, workspace } = await job(sandbox);
    const cache = temp.make('gf-pkg-cache-');
    // A warm cache larger than the cap: only growth counts.
    writeFileSync(join(cache, 'warm'), Buffer.alloc(8 * 1024 * 1024, 1));
    if (j.owner) {
      chownSync(cache, j.owner.uid, j.owner.gid);
      chownSync(join(cache, 'warm'), j.owner.uid, j.owner.gid);
    }
    const writableBinds = [{ source: cache, target: '/var/cache/greenfix-packages' }];
    const small = await j.run({ command: 'head -c 1000000 /dev/urandom > /var/cache/greenfix-packages/small && echo ok', workspace, timeoutMs: 30_000, writableBinds, network: false });
    expect(small).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    expect(j.signal.aborted).toBe(false);
    const r = await j.run({ command: 'head -c 20000000 /dev/urandom > /var/cache/greenfix-packages/big && sleep 30', workspace, timeoutMs: 30_000, writableBinds });
    expect(r.limit).toEqual({ kind: 'disk', limitMb: 5 });
    expect(j.signal.reason).toMatchObject({ reason: 'disk', message: 'disk limit reached: the worktree and the package cache grew past 5 MB' });
  });

  it('counts real blocks, not a sparse file\'s size, and never follows a symlink out of the tree', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_DISK_MB: '5' }, log: quiet, limits: { diskPollMs: 50 } });
    const { job: j, workspace } = await job(sandbox);
    const r = await j.run({ command: 'truncate -s 900M sparse && ln -s / root && ln -s /usr usr && echo ok', workspace, timeoutMs: 30_000 });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    const again = await j.run({ command: 'echo still', workspace, timeoutMs: 10_000 });
    expect(again.stdout).toBe('still\n');
    expect(j.signal.aborted).toBe(false);
  });
});
