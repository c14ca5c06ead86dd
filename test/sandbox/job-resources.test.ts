import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { detectCgroups } from '../../src/sandbox/detect-cgroups.js';
import { createJobCgroups } from '../../src/sandbox/job-cgroups.js';
import { makeEtcView, sweepEtcViews } from '../../src/sandbox/etc-view.js';
import { ETC_ALLOW, probeEtc } from '../../src/sandbox/host-layout.js';
import type { JobSandbox } from '../../src/sandbox/types.js';
import { isRoot, sandboxWorkspace, waitFor } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
const quiet = () => undefined;
afterEach(() => temp.cleanup());

describe("a job's /etc: laid out once (at its first command), bound read-only as one directory", () => {
  (isRoot ? it : it.skip)('names the leased uid, refuses every write, shows allow-listed entries only, and goes with the job', async () => {
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet });
    const workspace = await sandboxWorkspace(temp);
    // This process's views only (greenfix-etc-<pid>-…): other test files' jobs make theirs beside it.
    const views = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`greenfix-etc-${process.pid}-`));
    const before = views();
    const job: JobSandbox = await sandbox.forJob({ workspace });
    // Made at the job's first command, not before (greenfix fix's first model request needs none).
    expect(views().filter((name) => !before.includes(name))).toHaveLength(0);
    let made: string[] = [];
    try {
      const run = (command: string) => job.run({ command, workspace, timeoutMs: 10_000 });
      expect((await run('id -un')).stdout).toBe('greenfix\n');
      made = views().filter((name) => !before.includes(name));
      expect(made).toHaveLength(1);
      expect((await run('grep -c "^greenfix:x:" /etc/passwd /etc/group')).stdout).toBe('/etc/passwd:1\n/etc/group:1\n');
      for (const write of ['echo x >> /etc/passwd', 'touch /etc/planted', 'mkdir /etc/alternatives/x', 'rm -f /etc/hosts']) {
        expect((await run(`${write} 2>/dev/null`)).exitCode).not.toBe(0);
      }
      expect((await run('test -e /etc/shadow || test -e /etc/planted')).exitCode).not.toBe(0);
      // A directory entry stays the host's own (live), a file entry is the host's content.
      if (existsSync('/etc/alternatives')) expect((await run('ls /etc/alternatives | wc -l')).stdout.trim()).toBe(String(readdirSync('/etc/alternatives').length));
      expect((await run('cat /etc/hosts')).stdout).toBe(readFileSync('/etc/hosts', 'utf8'));
      expect(views().filter((name) => !before.includes(name))).toEqual(made);
    } finally {
      await job.release();
    }
    expect(existsSync(join(tmpdir(), made[0]!))).toBe(false);
  });

  it('copies files with their modes, owned by greenfix, and refuses an entry it cannot copy', async () => {
    const dir = temp.make('greenfix-etc-src-');
    writeFileSync(join(dir, 'passwd'), 'root:x:0:0::/root:/bin/sh\n', { mode: 0o644 });
    writeFileSync(join(dir, 'secret.conf'), 'token\n', { mode: 0o600 });
    const view = await makeEtcView({ etc: [join(dir, 'passwd'), join(dir, 'secret.conf')], identity: [{ path: '/etc/passwd', data: Buffer.from('replaced\n') }], parent: temp.make('greenfix-etc-parent-') });
    expect(view).not.toBeNull();
    expect(readFileSync(join(view!.dir, 'passwd'), 'utf8')).toBe('replaced\n');
    expect(statSync(join(view!.dir, 'secret.conf')).mode & 0o777).toBe(0o600);
    expect(statSync(view!.dir).mode & 0o777).toBe(0o755);
    await view!.remove();
    expect(existsSync(view!.dir)).toBe(false);
    const parent = temp.make('greenfix-etc-parent-');
    expect(await makeEtcView({ etc: [join(dir, 'passwd'), '/dev/null', join(dir, 'secret.conf')], identity: [], parent })).toBeNull();
    // Nothing of the refused view is left.
    expect(readdirSync(parent)).toEqual([]);
  });

  it("sweeps the views of a greenfix that is gone, and no one else's", async () => {
    const parent = temp.make('greenfix-etc-parent-');
    const mine = await makeEtcView({ etc: [], identity: [], parent });
    const gone = join(parent, 'greenfix-etc-999999999-abc');
    const other = join(parent, 'greenfix-etc-notes');
    for (const dir of [gone, other]) mkdirSync(dir);
    sweepEtcViews((pid) => pid === process.pid, parent);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(mine!.dir)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('lists the host /etc directories to bind on top of the view', async () => {
    const etc = probeEtc(ETC_ALLOW);
    const view = await makeEtcView({ etc, identity: [], parent: temp.make('greenfix-etc-parent-') });
    try {
      expect(view?.dirs).toEqual(etc.filter((path) => statSync(path).isDirectory()));
    } finally {
      await view?.remove();
    }
  });
});

describe("a job's cgroups: reused by its commands, never shared by two at once", () => {
  (isRoot ? it : it.skip)('kills what a command left before the next one gets the cgroup, and removes them all with the job', async () => {
    const detected = await detectCgroups();
    if (!detected.cgroups) return;
    let n = 0;
    const pool = createJobCgroups({ cgroups: detected.cgroups, limits: { memoryBytes: 256 * 1024 ** 2, pids: 64 }, name: () => `${process.pid}-test-${(n += 1)}` });
    const first = pool.lease();
    const concurrent = pool.lease();
    expect(concurrent.joinFiles).not.toEqual(first.joinFiles);
    // v1: the launcher moves its own (only) thread through `tasks`, which skips the kernel's global lock.
    for (const file of first.joinFiles) expect(file).toMatch(detected.cgroups.version === 'v1' ? /\/tasks$/ : /\/cgroup\.procs$/);
    // A leftover the way the launcher puts it there: it moves itself (0) through every join file.
    const leftover = spawn('bash', ['-c', `for f in ${first.joinFiles.join(' ')}; do echo 0 > $f; done; exec sleep 60`], { stdio: 'ignore', detached: true });
    await waitFor(() => readFileSync(first.joinFiles[0]!, 'utf8').trim() === String(leftover.pid), 5_000);
    await first.release();
    await waitFor(() => leftover.signalCode !== null || leftover.exitCode !== null, 5_000);
    expect(leftover.signalCode).toBe('SIGKILL');
    const again = pool.lease();
    expect(again.joinFiles).toEqual(first.joinFiles);
    expect(readFileSync(again.joinFiles[0]!, 'utf8')).toBe('');
    expect(again.oomKilled()).toBe(false);
    await again.release();
    await concurrent.release();
    await pool.removeAll();
    for (const file of [...first.joinFiles, ...concurrent.joinFiles]) expect(existsSync(file)).toBe(false);
  });
});
