import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { git } from '../../src/workspace/git.js';
import type { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { addWorktree, removeWorktree } from '../../src/workspace/worktree.js';
import { TempDirs } from '../support/temp-dir.js';

/**
 * The attack of issue 9 (1): a sandboxed command rewrites the worktree's `.git` so that the next
 * command would get a host directory of its choosing bound: greenfix's app dir (a `.env` with
 * the private key) or another job's worktree. The mounts are the host's decision, made once.
 */
const SECRET = 'PRIVATE_KEY=-----BEGIN RSA PRIVATE KEY-----attack-9a';
const OTHER = 'other-tenant-source-9a';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let base: string;
let appDir: string;
let otherJob: string;
let repo: string;
let ws: GitWorkspace;
let sandbox: Sandbox;

beforeAll(async () => {
  base = temp.make('greenfix-attack-');
  chmodSync(base, 0o755);
  appDir = join(base, 'app');
  mkdirSync(appDir);
  chmodSync(appDir, 0o755);
  writeFileSync(join(appDir, '.env'), `${SECRET}\n`, { mode: 0o644 });
  otherJob = join(base, 'jobs', 'other', 'worktree');
  mkdirSync(otherJob, { recursive: true });
  chmodSync(join(base, 'jobs'), 0o755);
  chmodSync(join(base, 'jobs', 'other'), 0o755);
  writeFileSync(join(otherJob, 'secret.txt'), `${OTHER}\n`, { mode: 0o644 });
  mkdirSync(join(otherJob, 'objects'));
  mkdirSync(join(otherJob, 'refs'));
  writeFileSync(join(otherJob, 'HEAD'), 'ref: refs/heads/main\n');

  repo = join(base, 'mirrors', 'repo.git');
  await git(['init', '-q', '-b', 'main', join(base, 'seed')], { cwd: base });
  writeFileSync(join(base, 'seed', 'a.txt'), 'a\n');
  await git(['add', '-A'], { cwd: join(base, 'seed') });
  await git(['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'a'], { cwd: join(base, 'seed') });
  await git(['clone', '-q', '--bare', join(base, 'seed'), repo], { cwd: base });
  chmodSync(join(base, 'mirrors'), 0o755);
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, appDirs: [appDir], log: () => undefined });
});

beforeEach(async () => {
  ws = await addWorktree({ repo, path: join(base, 'jobs', 'mine', 'worktree'), ref: 'main', stateDir: join(base, 'jobs', 'mine', 'index'), objectsWithin: join(base, 'mirrors') });
  chmodSync(join(base, 'jobs', 'mine'), 0o711);
  await prepareWorkspaceOwnership(ws.root, sandboxFileOwner());
});
afterEach(async () => removeWorktree(repo, ws.root));

const run = (command: string) =>
  sandbox.run({ command, workspace: ws.root, readOnlyBinds: ws.sandboxBinds, timeoutMs: 20_000 });

const rewrites: Record<string, (target: string) => string> = {
  'gitdir: .x with .x/commondir naming the target': (target) =>
    `rm -f .git; mkdir -p .x; printf 'gitdir: .x\\n' > .git; printf '%s\\n' '${target}' > .x/commondir; printf 'ref: refs/heads/main\\n' > .x/HEAD`,
  'gitdir naming the target directly': (target) => `rm -f .git; printf 'gitdir: %s\\n' '${target}' > .git`,
};

describe.each(Object.entries(rewrites))('a command rewrites .git (%s)', (_name, rewrite) => {
  it.each([
    ['the app dir', () => appDir, () => SECRET],
    ["another job's worktree", () => otherJob, () => OTHER],
  ])('the next command still cannot read %s, and host-side git and cleanup keep working', async (_what, target, secret) => {
    const before = ws.sandboxBinds.map((b) => `${b.source}→${b.target}`);
    const first = await run(rewrite(target()));
    expect(first.exitCode).toBe(0);
    const next = await run(`cat '${target()}/.env' '${target()}/secret.txt' '${target()}/../.env'; ls -la '${target()}'; git status; git log --oneline; cat .git`);
    const seen = `${next.stdout}\n${next.stderr}`;
    expect(seen).not.toContain(secret());
    expect(seen).toMatch(/No such file or directory/);
    // The mounts are the host's: the same before and after, whatever .git says now.
    expect(ws.sandboxBinds.map((b) => `${b.source}→${b.target}`)).toEqual(before);
    // Host-side git still uses the pinned git dir: the tree hash ignores the rewritten .git.
    writeFileSync(join(ws.root, 'b.txt'), 'b\n');
    const tree = await ws.treeHash();
    const names = (await git(['ls-tree', '-r', '--name-only', tree], { cwd: repo })).split('\n');
    expect(names).toEqual(expect.arrayContaining(['a.txt', 'b.txt']));
    expect(names.some((n) => n === '.git' || n.startsWith('.git/'))).toBe(false);
    // Cleanup survives it: the directory goes, and the mirror forgets the worktree.
    await removeWorktree(repo, ws.root);
    expect(existsSync(ws.root)).toBe(false);
    const listed = await git(['worktree', 'list', '--porcelain'], { cwd: repo });
    expect(listed).not.toContain(ws.root);
    expect(readFileSync(join(appDir, '.env'), 'utf8')).toBe(`${SECRET}\n`);
  });
});

describe('the sandbox refuses binds that touch greenfix’s own directories', () => {
  it('refuses a bind inside an app dir, and one that contains an app dir', async () => {
    const inside = join(appDir, 'sub');
    mkdirSync(inside, { recursive: true });
    await expect(
      sandbox.run({ command: 'true', workspace: ws.root, readOnlyBinds: [{ source: inside, target: '/mnt/x' }], timeoutMs: 5000 }),
    ).rejects.toMatchObject({ reason: 'bind-refused' });
    await expect(
      sandbox.run({ command: 'true', workspace: ws.root, readOnlyBinds: [{ source: base, target: '/mnt/x' }], timeoutMs: 5000 }),
    ).rejects.toMatchObject({ reason: 'bind-refused' });
  });

  it('refuses an object store outside where the host says it must be', async () => {
    await expect(
      addWorktree({ repo, path: join(base, 'jobs', 'elsewhere', 'worktree'), ref: 'main', stateDir: join(base, 'jobs', 'elsewhere', 'index'), objectsWithin: appDir }),
    ).rejects.toMatchObject({ name: 'GitViewError' });
    await removeWorktree(repo, join(base, 'jobs', 'elsewhere', 'worktree'));
  });
});
