import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createImageCache, type PreparedImage } from '../../src/image/image-cache.js';
import { ANONYMOUS } from '../../src/image/registry-access.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { DEFAULT_SANDBOX_PATH } from '../../src/sandbox/environment.js';
import { testOnlyTreatAsPublic } from '../../src/sandbox/egress-decision.js';
import { createUnsandboxed } from '../../src/sandbox/unsandboxed.js';
import type { JobSandbox, Sandbox } from '../../src/sandbox/types.js';
import { startRegistry, type RegistryServer } from '../support/registry-server.js';
import { cleanup, tempDir, TempDirs } from '../support/temp-dir.js';
import { IMAGE_TOOL, pushImage, toolImageLayer } from '../support/test-images.js';
import { isRoot, sandboxWorkspace } from './fixtures.js';

const temp = new TempDirs();
const quiet = () => undefined;
let registry: RegistryServer;
let image: PreparedImage;
let sandbox: Sandbox;
let server: Server;
let job: JobSandbox;
let workspace: string;
let imagesParent: string;

beforeAll(async () => {
  registry = await startRegistry();
  const reference = pushImage(registry.host, 'envs/tool', [toolImageLayer()]);
  // The sandbox uid passes through the workdir to the image's root (0711), as through to a worktree.
  imagesParent = tempDir('gf-images-');
  const cache = createImageCache({ dir: join(imagesParent, 'images'), capBytes: 1024 ** 3, tools: { skopeo: '/usr/bin/skopeo', umoci: '/usr/bin/umoci' }, access: ANONYMOUS });
  image = await cache.prepare(reference);
  server = createServer((_req, res) => res.end('served through the egress proxy\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, egress: { policy: testOnlyTreatAsPublic([`127.0.0.1:${port}`]) } });
  workspace = await sandboxWorkspace(temp);
  job = await sandbox.forJob({ workspace, image });
});
afterAll(async () => {
  await job?.release();
  image?.release();
  await new Promise((resolve) => server?.close(resolve));
  await registry?.stop();
  temp.cleanup();
  if (imagesParent) cleanup(imagesParent);
});

const run = (command: string, extra: Partial<Parameters<JobSandbox['run']>[0]> = {}) => job.run({ command, workspace, timeoutMs: 10_000, ...extra });

describe('a job sandbox whose / is an environment image', () => {
  it('runs the image\'s tools and sees none of the host\'s userland', async () => {
    const r = await run(`command -v ${IMAGE_TOOL}; cat /etc/os-release; test -e /usr/bin/node && echo host-node; test -e /usr/bin/git && echo host-git; ls /`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`/usr/local/bin/${IMAGE_TOOL}`);
    expect(r.stdout).toContain('ID=greenfix-test-image');
    expect(r.stdout).not.toMatch(/host-node|host-git/);
    expect(job.image?.digest).toBe(image.digest);
  });

  it('keeps the job\'s uid (named in the image\'s own passwd), a writable worktree and /tmp, and a read-only root', async () => {
    const r = await run('id -u; id -un; echo hi > here.txt && cat here.txt; echo t > /tmp/t && cat /tmp/t; touch /usr/new 2>/dev/null || echo root-read-only; touch /new 2>/dev/null || echo slash-read-only; echo $HOME');
    const uid = String(job.owner?.uid ?? process.getuid?.());
    expect(r.stdout.split('\n')).toEqual([uid, isRoot ? 'greenfix' : expect.any(String), 'hi', 't', 'root-read-only', 'slash-read-only', '/tmp/home', '']);
  });

  it('keeps seccomp, no_new_privs, a fresh /proc and /dev, as without an image', async () => {
    const r = await run('grep -E "^(Seccomp|NoNewPrivs):" /proc/self/status; test -c /dev/null && echo dev-null; ls /proc | grep -c "^[0-9]"');
    const [noNewPrivs, seccomp, devNull, processes] = r.stdout.trim().split('\n');
    expect(seccomp).toMatch(/^Seccomp:\s+2$/);
    expect(noNewPrivs).toMatch(/^NoNewPrivs:\s+1$/);
    expect(devNull).toBe('dev-null');
    // Its own pid namespace: a handful of processes, not the host's.
    expect(Number(processes)).toBeLessThan(10);
  });

  it('has no network outside the setup step', async () => {
    const port = (server.address() as AddressInfo).port;
    const r = await run(`wget -q -T 2 -O - http://127.0.0.1:${port}/ || echo no-network`);
    expect(r.stdout).toContain('no-network');
  });

  it('lets the setup step out through the egress proxy, with the host\'s node as the forwarder and the host\'s CA bundle', async () => {
    const port = (server.address() as AddressInfo).port;
    const r = await run(`wget -q -O - http://127.0.0.1:${port}/; test -r "$SSL_CERT_FILE" && echo ca-readable; test -e /usr/bin/node || echo no-node-in-image`, { network: true });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('served through the egress proxy');
    expect(r.stdout).toContain('ca-readable');
    expect(r.stdout).toContain('no-node-in-image');
  });

  it('mounts the workspace where the image already has a directory, without writing into the shared image', async () => {
    const before = execFileSync('find', [image.rootfs], { encoding: 'utf8' });
    const r = await run('pwd; cat /etc/os-release; ls /etc', { mountAt: '/etc/project' });
    expect(r.stdout).toContain('/etc/project');
    expect(r.stdout).toContain('ID=greenfix-test-image');
    expect(execFileSync('find', [image.rootfs], { encoding: 'utf8' })).toBe(before);
  });

  it("leaves the user's toolchains (their PATH and variables) to the host's userland: in an image, the image's PATH", async () => {
    const toolchains = { readOnlyPaths: [], path: '/home/someone/.pyenv/shims:/usr/bin:/bin', env: { PYENV_ROOT: '/home/someone/.pyenv' }, visible: [], notFound: [], refused: [] };
    const withToolchains = await createSandbox({ env: { PATH: process.env.PATH }, log: quiet, toolchains });
    const inImage = await withToolchains.forJob({ workspace, image });
    try {
      const r = await inImage.run({ command: 'echo "$PATH"; echo "root=${PYENV_ROOT:-none}"', workspace, timeoutMs: 10_000 });
      expect(r.stdout).toBe(`${DEFAULT_SANDBOX_PATH}\nroot=none\n`);
    } finally {
      await inImage.release();
    }
  });

  it('is refused without the sandbox rather than run on the host\'s userland', async () => {
    const dir = temp.make('gf-off-');
    mkdirSync(join(dir, 'ws'));
    writeFileSync(join(dir, 'ws', 'x'), '');
    await expect(createUnsandboxed().forJob({ workspace: join(dir, 'ws'), image })).rejects.toThrow(/environment image .* needs the sandbox, and GREENFIX_SANDBOX=off turned it off/);
    expect(readdirSync(dir)).toEqual(['ws']);
  });
});
