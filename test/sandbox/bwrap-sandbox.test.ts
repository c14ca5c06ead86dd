import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { SandboxRequestError } from '../../src/sandbox/errors.js';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { createUnsandboxed } from '../../src/sandbox/unsandboxed.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { isRoot, processesMatching, sandboxWorkspace } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
const quiet = () => undefined;
let sandbox: Sandbox;
let workspace: string;

beforeAll(async () => {
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet });
});
beforeEach(async () => {
  workspace = await sandboxWorkspace(temp);
});
afterEach(() => temp.cleanup());

const run = (command: string, extra: Partial<Parameters<Sandbox['run']>[0]> = {}) =>
  sandbox.run({ command, workspace, timeoutMs: 10_000, ...extra });

describe('bwrap sandbox', () => {
  it('is a bubblewrap sandbox and propagates exit code and both streams', async () => {
    expect(sandbox.kind).toBe('bwrap');
    const r = await run('echo out; echo err >&2; exit 7');
    expect(r).toMatchObject({ exitCode: 7, stdout: 'out\n', stderr: 'err\n', timedOut: false, truncated: false });
  });

  (isRoot ? it : it.skip)('runs as the unprivileged sandbox uid when greenfix is root', async () => {
    const r = await run('id -u; id -g');
    expect(r.stdout).toBe('65534\n65534\n');
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('has none by default, although the same connection works from outside', async () => {
      const connect = `echo hi > /dev/tcp/127.0.0.1/${port}`;
      const outside = await createUnsandboxed().run({ command: connect, workspace, timeoutMs: 10_000 });
      expect(outside.exitCode).toBe(0);
      const before = connections;
      const inside = await run(connect);
      expect(inside.exitCode).not.toBe(0);
      expect(inside.stderr).toMatch(/Connection refused/);
      expect(connections).toBe(before);
    });

    it('never shares the host network, not even with the setup step (its way out is the egress proxy)', async () => {
      const before = connections;
      const r = await run(`echo hi > /dev/tcp/127.0.0.1/${port}`, { network: true });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toMatch(/Connection refused/);
      expect(connections).toBe(before);
      expect((await run('test -e /etc/resolv.conf', { network: true })).exitCode).not.toBe(0);
      expect(r.egress).toEqual({ refusedCount: 0, refused: [], connectedCount: 0, connections: [] });
    });
  });

  it('clears the environment: greenfix secrets never reach the command', async () => {
    process.env.GITHUB_TOKEN = 'ghs_test_should_not_leak';
    process.env.OPENAI_API_KEY = 'sk-test-should-not-leak';
    try {
      const r = await run('env', { env: { FOO: 'bar' } });
      expect(r.stdout).not.toMatch(/GITHUB_TOKEN|OPENAI_API_KEY|should_not_leak|should-not-leak/);
      expect(r.stdout).toMatch(/^FOO=bar$/m);
      expect(r.stdout).toMatch(/^CI=true$/m);
      expect(r.stdout).toMatch(/^HOME=\/tmp\/home$/m);
    } finally {
      delete process.env.GITHUB_TOKEN;
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('refuses request variables that look like secrets, before running anything', async () => {
    const attempt = run('touch ran', { env: { NPM_TOKEN: 'x' } });
    await expect(attempt).rejects.toBeInstanceOf(SandboxRequestError);
    await expect(attempt).rejects.toMatchObject({ reason: 'env-refused' });
    expect(existsSync(join(workspace, 'ran'))).toBe(false);
  });

  it("hides /root, /home, the app's directory and the host's secrets files", async () => {
    const paths = ['/root', '/home', '/work', process.cwd(), '/etc/shadow', '/etc/npmrc', '/var', '/run'];
    const r = await run(`for p in ${paths.join(' ')}; do test -e "$p" && echo "VISIBLE $p"; done; ls /`);
    expect(r.stdout).not.toMatch(/VISIBLE/);
    expect(r.stdout).toMatch(/^usr$/m);
  });

  (isRoot ? it : it.skip)('cannot read a root-owned 0600 file even where it is visible (skipped unless root: needs a root-owned file)', async () => {
    const dir = temp.make('greenfix-ro-');
    chmodSync(dir, 0o755);
    const secret = join(dir, 'secret');
    writeFileSync(secret, 'topsecret', { mode: 0o600 });
    const withPath = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_RO_PATHS: dir }, log: quiet });
    const r = await withPath.run({ command: `test -e ${secret} && echo visible; cat ${secret}`, workspace, timeoutMs: 10_000 });
    expect(r.stdout).toBe('visible\n');
    expect(r.stderr).toMatch(/Permission denied/);
    expect(r.exitCode).not.toBe(0);
  });

  it('lets the command write the workspace, and starts in cwd', async () => {
    mkdirSync(join(workspace, 'sub'));
    await prepareWorkspaceOwnership(workspace, sandboxFileOwner()); // as the workspace module does
    const r = await run('pwd; echo hello > ../out.txt; echo x > y', { cwd: 'sub' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${join(workspace, 'sub')}\n`);
    expect(readFileSync(join(workspace, 'out.txt'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(workspace, 'sub', 'y'), 'utf8')).toBe('x\n');
  });

  it('refuses a cwd outside the workspace', async () => {
    await expect(run('true', { cwd: '..' })).rejects.toMatchObject({ reason: 'cwd-outside-workspace' });
  });

  it("runs git in a linked worktree through the host-decided git view, read-only", async () => {
    const base = temp.make('greenfix-git-');
    chmodSync(base, 0o755);
    const git = (args: string) =>
      createUnsandboxed().run({ command: `git -c user.name=t -c user.email=t@e ${args}`, workspace: base, timeoutMs: 10_000 });
    await git('init -q repo && cd repo && echo a > a && git add a && git -c user.name=t -c user.email=t@e commit -qm a');
    const ws = await addWorktree({ repo: join(base, 'repo'), path: join(base, 'wt'), ref: 'HEAD', stateDir: join(base, 'state') });
    await prepareWorkspaceOwnership(ws.root, sandboxFileOwner());
    const r = await sandbox.run({
      command: 'echo b >> a; git status --short; git log --format=%s; touch ../repo/.git/x ../repo/.git/objects/x; cat ../repo/.git/config',
      workspace: ws.root,
      readOnlyBinds: ws.sandboxBinds,
      timeoutMs: 10_000,
    });
    expect(r.stdout).toBe(' M a\na\n');
    expect(r.stderr).toMatch(/touch: cannot touch '..\/repo\/.git\/objects\/x': (Read-only file system|Permission denied)/);
    // What bwrap made around the mount points lives in the sandbox's own root, never on the host.
    expect(existsSync(join(base, 'repo/.git/x'))).toBe(false);
    expect(r.stderr).toMatch(/cat: ..\/repo\/.git\/config: No such file or directory/);
  });

  it('has a private /tmp', async () => {
    const hostDir = temp.make('greenfix-host-');
    writeFileSync(join(hostDir, 'marker'), 'x');
    const r = await run(`test -e ${hostDir}/marker && echo VISIBLE; echo mine > /tmp/own && cat /tmp/own`);
    expect(r.stdout).toBe('mine\n');
  });

  it('kills everything the command started when the time is up', async () => {
    const marker = `300.${process.pid}${Date.now() % 1000}`;
    const r = await run(`sleep ${marker} & echo started; wait`, { timeoutMs: 700 });
    expect(r.timedOut).toBe(true);
    expect(r.stdout).toBe('started\n');
    expect(processesMatching(marker)).toEqual([]);
  });

  it('kills the command on abort', async () => {
    const controller = new AbortController();
    const pending = run('echo started; sleep 30', { signal: controller.signal });
    controller.abort();
    const r = await pending;
    expect(r.aborted).toBe(true);
    expect(r.exitCode).not.toBe(0);
  });

  it('caps output while it streams and writes the full output file when asked', async () => {
    const big = await run('yes | head -c 50000000');
    expect(big.exitCode).toBe(0);
    expect(big.truncated).toBe(true);
    expect(big.stdout.length).toBeLessThan(100_000);
    expect(big.stdout).toMatch(/\[\d+ bytes elided\]/);

    const outputFile = join(temp.make('greenfix-out-'), 'full.log');
    const r = await run('seq 1 100000', { outputFile });
    expect(r.truncated).toBe(true);
    const full = readFileSync(outputFile, 'utf8');
    expect(full.split('\n').slice(-2)).toEqual(['100000', '']);
    expect(full.length).toBe(588_895);
  });
});

describe('bwrap sandbox limits', () => {
  const forks = `perl -e 'for (1..60) { my $p = fork; die "fork failed at $_\\n" unless defined $p; if (!$p) { sleep 5; exit } } print "all forked\\n"'`;

  (isRoot ? it : it.skip)('limits the number of processes (skipped unless root: a cgroup per command, or NPROC for a uid of its own)', async () => {
    const limited = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, limits: { processes: 20 } });
    const r = await limited.run({ command: forks, workspace, timeoutMs: 10_000 });
    expect(r.stderr).toMatch(/fork failed at \d+/);
    expect(r.exitCode).not.toBe(0);
    const normal = await run(forks);
    expect(normal.stdout).toBe('all forked\n');
  });

  (isRoot ? it : it.skip)('without a cgroup, caps the processes of a job by RLIMIT_NPROC of its own uid', async () => {
    const noCgroup = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, limits: { processes: 20 }, cgroups: { cgroups: null, why: 'test' } });
    const job = await noCgroup.forJob({ workspace });
    try {
      const r = await job.run({ command: forks, workspace, timeoutMs: 10_000 });
      expect(r.stderr).toMatch(/fork failed at \d+/);
      const hard = await job.run({ command: 'ulimit -Hu; ulimit -Su', workspace, timeoutMs: 10_000 });
      expect(hard.stdout).toBe('20\n20\n');
    } finally {
      await job.release();
    }
  });

  it('limits the size of a file the command writes (whole KiB)', async () => {
    const limited = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, limits: { fileSizeBytes: 1_024_000 } });
    const r = await limited.run({ command: 'head -c 2000000 /dev/zero > big; echo "head=$?"; stat -c %s big; ulimit -Hf', workspace, timeoutMs: 10_000 });
    expect(r.stdout).toBe('head=153\n1024000\n1000\n'); // 128 + SIGXFSZ
  });
});
