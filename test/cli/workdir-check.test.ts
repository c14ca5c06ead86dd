import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ownWorkdirProblem, workdirProblem } from '../../src/cli/workdir-check.js';
import { CLI, writeScript } from './helpers.js';
import { SANDBOX_OWNER } from '../../src/sandbox/ownership.js';
import { cleanup, tempDir } from '../support/temp-dir.js';

const asRoot = process.getuid?.() === 0;

describe('the startup workdir check', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('greenfix-workdir-');
  });
  afterEach(() => cleanup(dir));

  (asRoot ? it : it.skip)('refuses a workdir under a 0700 directory in one sentence naming it and the fix', () => {
    const home = join(dir, 'root-home');
    mkdirSync(home, { mode: 0o700 });
    chmodSync(home, 0o700);
    const problem = workdirProblem(join(home, 'app', '.greenfix'), SANDBOX_OWNER);
    expect(problem).toBe(
      `the workdir ${join(home, 'app', '.greenfix')} is not reachable by the sandbox user (uid 65534) because ${home} (mode 0700) has no o+x: ` +
        `run \`chmod o+x ${home}\` (others may then pass through it, not list it) or set GREENFIX_WORKDIR to a directory whose every parent has o+x, such as /var/lib/greenfix`,
    );
    expect(problem?.split(/[.!?]\s/)).toHaveLength(1);
  });

  it('accepts a reachable workdir, creating it 0711, and fixes a 0700 workdir that is its own', () => {
    const fresh = join(dir, 'a', 'work');
    expect(workdirProblem(fresh, SANDBOX_OWNER)).toBeNull();
    expect(statSync(fresh).mode & 0o777).toBe(0o711);
    const locked = join(dir, 'locked-work');
    mkdirSync(locked);
    chmodSync(locked, 0o700);
    expect(workdirProblem(locked, SANDBOX_OWNER)).toBeNull();
    expect(statSync(locked).mode & 0o777).toBe(0o711);
  });

  it('has nothing to check when commands run as the current user (not root)', () => {
    const home = join(dir, 'home');
    mkdirSync(home, { mode: 0o700 });
    expect(workdirProblem(join(home, 'work'), null)).toBeNull();
  });
});

describe("the local CLI's workdir is its user's own", () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('greenfix-ownwd-');
  });
  afterEach(() => cleanup(dir));
  const me = process.getuid?.() ?? 0;

  it('is made 0700 (0711 as root, for the sandbox uid to pass through), and a looser one of its own is tightened', () => {
    const fresh = join(dir, 'greenfix-x');
    expect(ownWorkdirProblem(fresh, me)).toBeNull();
    expect(statSync(fresh).mode & 0o777).toBe(asRoot ? 0o711 : 0o700);
    chmodSync(fresh, 0o777);
    expect(ownWorkdirProblem(fresh, me)).toBeNull();
    expect(statSync(fresh).mode & 0o777).toBe(asRoot ? 0o711 : 0o700);
  });

  it('refuses a symlink in its place', () => {
    const link = join(dir, 'greenfix-link');
    symlinkSync(dir, link);
    expect(ownWorkdirProblem(link, me)).toMatch(/^the workdir .*greenfix-link is a symlink or not a directory: remove it, or set GREENFIX_WORKDIR to a directory of your own$/);
  });

  (asRoot ? it : it.skip)('refuses one another user made first, in one sentence with the fix: greenfix fix run as uid 65534 exits 2', async () => {
    // A shared tmp (1777, as /tmp): root made the default workdir of uid 65534 before that user ran greenfix.
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    chmodSync(tmp, 0o1777);
    const planted = join(tmp, 'greenfix-65534');
    mkdirSync(planted, { mode: 0o777 });
    chmodSync(planted, 0o777);
    expect(ownWorkdirProblem(planted, 65534)).toBe(
      `the workdir ${planted} belongs to uid 0, not to you (uid 65534): remove it (\`rm -rf ${planted}\`, as its owner or root) or set GREENFIX_WORKDIR to a directory of your own`,
    );
    const script = writeScript(dir, [[['finish', { summary: 'none', gave_up: true }]]]);
    const cli = await runCliAs(65534, ['fix', '--repo', tmp, '--task', 't', '--model', `scripted:${script}`], { TMPDIR: tmp });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`the workdir ${planted} belongs to uid 0, not to you (uid 65534)`);
    expect(readdirSync(planted)).toEqual([]);
  });
});

/** The built CLI as another uid (root only). */
function runCliAs(uid: number, args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { uid, gid: uid, cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}
