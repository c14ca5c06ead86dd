import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, type SandboxLogLevel } from '../../src/sandbox/create-sandbox.js';
import { SandboxConfigError, SandboxUnavailableError } from '../../src/sandbox/errors.js';
import { checkSystemPackages } from '../../src/sandbox/system-packages.js';
import { isRoot, sandboxWorkspace } from './fixtures.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

function recorder() {
  const lines: { level: SandboxLogLevel; message: string }[] = [];
  return { lines, log: (level: SandboxLogLevel, message: string) => void lines.push({ level, message }) };
}

describe('createSandbox', () => {
  it('checks bubblewrap really works, then returns it and says once what isolation is in force', async () => {
    const { lines, log } = recorder();
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log });
    expect(sandbox.kind).toBe('bwrap');
    expect(lines).toEqual([expect.objectContaining({ message: expect.stringMatching(/bubblewrap/) })]);
    const said = lines[0]!.message;
    expect(said).toMatch(/seccomp refusing \d+ syscalls; disk 10240 MB per job/);
    if (isRoot) {
      // This machine: root, cgroup v1 memory + pids mounted read-write.
      expect(lines[0]!.level).toBe('info');
      expect(said).toMatch(/a uid of its own per job \(2147000000-2147000999\)/);
      expect(said).toMatch(/cgroup v[12] per command \(memory 4096 MB, 1024 processes\)/);
    } else {
      expect(lines[0]!.level).toBe('warn');
      expect(said).toMatch(/the current user \(greenfix is not root: no uid per job\)/);
    }
  });

  it('falls back to rlimits where no cgroup can be created, and says so once', async () => {
    const { lines, log } = recorder();
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log, cgroups: { cgroups: null, why: 'read-only cgroupfs' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', message: expect.stringMatching(/no cgroup: read-only cgroupfs; instead .* no memory cap \(RLIMIT_AS breaks node and JVMs\)/) });
    const workspace = await sandboxWorkspace(temp);
    const job = await sandbox.forJob({ workspace });
    try {
      const r = await job.run({ command: 'echo fine', workspace, timeoutMs: 10_000 });
      expect(r.stdout).toBe('fine\n');
    } finally {
      await job.release();
    }
  });

  it.each([
    ['GREENFIX_SANDBOX_MEMORY_MB', '12', 'bad-limit'],
    ['GREENFIX_SANDBOX_PIDS', '-1', 'bad-limit'],
    ['GREENFIX_SANDBOX_DISK_MB', 'lots', 'bad-limit'],
    ['GREENFIX_SANDBOX_UIDS', '0-100', 'bad-uid-range'],
  ])('refuses %s=%s before starting anything', async (name, value, reason) => {
    const attempt = createSandbox({ env: { PATH: process.env.PATH, [name]: value }, log: () => undefined });
    await expect(attempt).rejects.toBeInstanceOf(SandboxConfigError);
    await expect(attempt).rejects.toMatchObject({ reason, message: expect.stringContaining(name) });
  });

  it('refuses to start without bubblewrap and says how to fix it', async () => {
    const attempt = createSandbox({ env: { PATH: '/nonexistent' }, log: () => undefined });
    await expect(attempt).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(attempt).rejects.toMatchObject({
      reason: 'bwrap-missing',
      message: expect.stringMatching(/apt-get install bubblewrap.*GREENFIX_SANDBOX=off/s),
    });
  });

  it('runs without isolation only with GREENFIX_SANDBOX=off, and says so loudly', async () => {
    const { lines, log } = recorder();
    const sandbox = await createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX: 'off' }, log });
    expect(sandbox.kind).toBe('none');
    expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^SANDBOX DISABLED/) }]);
    process.env.GITHUB_TOKEN = 'ghs_should_not_leak';
    try {
      const workspace = temp.make('greenfix-ws-');
      const r = await sandbox.run({ command: 'pwd; env', workspace, timeoutMs: 10_000 });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.startsWith(`${workspace}\n`)).toBe(true);
      expect(r.stdout).not.toMatch(/should_not_leak/);
      expect(r.stdout).toMatch(/^CI=true$/m);
    } finally {
      delete process.env.GITHUB_TOKEN;
    }
  });

  it('rejects an unknown GREENFIX_SANDBOX value', async () => {
    await expect(createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX: 'of' }, log: () => undefined })).rejects.toMatchObject({
      reason: 'bad-mode',
    });
  });

  it.each([
    ['relative', () => 'usr/local'],
    ['missing', () => '/nonexistent/greenfix'],
    ["the app's directory", () => process.cwd()],
    ["a parent of the app's directory", () => '/'],
    ["a path inside the app's directory", () => `${process.cwd()}/node_modules`],
  ])('rejects GREENFIX_SANDBOX_RO_PATHS naming %s', async (_what, path) => {
    const attempt = createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_RO_PATHS: `/usr/share:${path()}` }, log: () => undefined });
    await expect(attempt).rejects.toBeInstanceOf(SandboxConfigError);
    await expect(attempt).rejects.toMatchObject({ reason: 'bad-ro-path' });
  });
});

describe('GREENFIX_SANDBOX_RO_PATHS refusals say who and why', () => {
  it("names the current directory's role, not only that it is greenfix's", async () => {
    const attempt = createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_RO_PATHS: process.cwd() }, log: () => undefined });
    await expect(attempt).rejects.toThrow(`overlaps greenfix's own directory ${process.cwd()}, which the sandbox must not see: the directory greenfix was started in, where it reads its .env and keeps its default workdir .greenfix`);
  });

  (isRoot ? it : it.skip)('names the uids jobs really run as (GREENFIX_SANDBOX_UIDS) and the directory that stops them', async () => {
    const top = temp.make('gf-ro-');
    mkdirSync(join(top, 'tools'));
    const attempt = createSandbox({ env: { PATH: process.env.PATH, GREENFIX_SANDBOX_UIDS: '3000000-3000009', GREENFIX_SANDBOX_RO_PATHS: join(top, 'tools') }, log: () => undefined });
    await expect(attempt).rejects.toThrow(
      `GREENFIX_SANDBOX_RO_PATHS: ${join(top, 'tools')} is not reachable from the sandbox (jobs run as uids 3000000-3000009 from GREENFIX_SANDBOX_UIDS, one-off commands as 65534): ` +
        `${top} has mode 0700, which lets none of them pass — chmod o+x ${top} lets them pass without listing it`,
    );
  });
});

describe('checkSystemPackages', () => {
  it('finds everything on this machine', () => {
    expect(checkSystemPackages({ env: { PATH: process.env.PATH }, isRoot: true })).toEqual([]);
  });

  it('names what is missing and the package that provides it', () => {
    const missing = checkSystemPackages({ env: { PATH: '/nonexistent' }, isRoot: true });
    expect(missing.map((m) => [m.binary, m.aptPackage])).toEqual([
      ['git', 'git'],
      ['bash', 'bash'],
      ['du', 'coreutils'],
      ['bwrap', 'bubblewrap'],
      ['setpriv', 'util-linux'],
    ]);
    expect(missing[3]?.message).toMatch(/apt-get install bubblewrap/);
  });

  it('needs skopeo and umoci only when the operator configured a default image, naming the Debian packages', () => {
    expect(checkSystemPackages({ env: { PATH: '/nonexistent' }, isRoot: true }).map((m) => m.binary)).not.toContain('skopeo');
    const missing = checkSystemPackages({ env: { PATH: '/nonexistent' }, isRoot: true, images: true }).filter((m) => ['skopeo', 'umoci'].includes(m.binary));
    expect(missing.map((m) => m.message)).toEqual([
      expect.stringMatching(/^skopeo is not installed \(needed for pulling environment images \(GREENFIX_DEFAULT_IMAGE\).*apt-get install skopeo$/),
      expect.stringMatching(/^umoci is not installed .*apt-get install umoci$/),
    ]);
    expect(checkSystemPackages({ env: { PATH: process.env.PATH }, isRoot: true, images: true })).toEqual([]);
  });

  it('only needs git and bash (every launch closes inherited descriptors) when the sandbox is off, and no setpriv when not root', () => {
    expect(checkSystemPackages({ env: { PATH: '/nonexistent' }, isRoot: true, sandboxOff: true }).map((m) => m.binary)).toEqual(['git', 'bash', 'du']);
    expect(checkSystemPackages({ env: { PATH: '/nonexistent' }, isRoot: false }).map((m) => m.binary)).not.toContain('setpriv');
  });
});
