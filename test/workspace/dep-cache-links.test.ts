import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runSetup, type SetupCache } from '../../src/fix/setup-phase.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import type { JobSandbox, Sandbox } from '../../src/sandbox/types.js';
import { createDepCache, type DepCache } from '../../src/workspace/dep-cache.js';
import { refDirName } from '../../src/workspace/dep-cache-scope.js';
import type { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { setupStateTree } from '../../src/workspace/setup-state.js';
import { treeManifest } from '../../src/workspace/tree-manifest.js';
import { addWorktree } from '../../src/workspace/worktree.js';
import { isRoot } from '../sandbox/fixtures.js';
import { makeRepo } from '../support/make-repo.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
const SCOPE = { repo: 'links', ref: 'refs/heads/main', defaultRef: 'refs/heads/main' };
const INSTALL = "mkdir -p node_modules/dep-a node_modules/.bin && printf 'exports.a = 1;\\n' > node_modules/dep-a/index.js && ln -s ../dep-a/index.js node_modules/.bin/a";
const INDEX = 'node_modules/dep-a/index.js';

/**
 * Issue 26's restore by hard links, through the real setup step and a job's real bubblewrap
 * sandbox (its own uid): the second job gets the entry's own inodes, owned by greenfix and
 * writable by no one else, in directories of its own; nothing its commands do reaches the entry,
 * and the setup state kept for the clean room links the same files instead of copying them.
 */
(isRoot ? describe : describe.skip)('a dependency cache restored by hard links', () => {
  let sandbox: Sandbox;
  let dir: string;
  let repo: string;
  let cache: DepCache;
  const jobs: JobSandbox[] = [];
  beforeAll(async () => {
    sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
  });
  beforeEach(() => {
    dir = temp.make('gf-cache-links-');
    chmodSync(dir, 0o755);
    repo = makeRepo(join(dir, 'repo'), { 'package.json': '{"name":"r"}\n', 'package-lock.json': '{"lockfileVersion":3,"packages":{}}\n', '.gitignore': 'node_modules/\n' });
    cache = createDepCache({ dir: join(dir, 'dep-cache'), capBytes: 1024 ** 3, warn: (m) => { throw new Error(`unexpected warning: ${m}`); }, now: Date.now });
  });
  afterEach(async () => {
    for (const job of jobs.splice(0)) await job.release();
    temp.cleanup();
  });

  let n = 0;
  const job = async (): Promise<{ ws: GitWorkspace; runner: JobSandbox; setup: Awaited<ReturnType<typeof runSetup>> }> => {
    n += 1;
    const ws = await addWorktree({ repo, path: join(dir, `job-${n}`), ref: 'HEAD', stateDir: join(dir, `state-${n}`) });
    const runner = await sandbox.forJob({ workspace: ws.root });
    jobs.push(runner);
    const setupCache: SetupCache = { cache, scope: SCOPE, uidScheme: 'per-job-uid', owner: runner.owner };
    const setup = await runSetup({ workspace: ws, sandbox: runner, timeoutMs: 30_000, cache: setupCache }, INSTALL);
    return { ws, runner, setup };
  };
  const entry = (): string => {
    const refDir = join(dir, 'dep-cache', SCOPE.repo, refDirName(SCOPE.ref));
    return join(refDir, readdirOne(refDir));
  };

  it('links the entry\'s files into the job, which can replace them but never write, truncate, chmod or touch them', async () => {
    const first = await job();
    expect(first.setup.cache?.result).toBe('stored');
    const stored = join(entry(), INDEX);
    const manifestBefore = treeManifest(entry(), ['node_modules']).digest;

    const second = await job();
    expect(second.setup.cache?.result).toBe('hit');
    const owner = second.runner.owner!;
    const linked = statSync(join(second.ws.root, INDEX));
    expect(linked.ino).toBe(statSync(stored).ino);
    expect(linked.uid).toBe(process.getuid!());
    expect(linked.mode & 0o022).toBe(0);
    expect(statSync(join(second.ws.root, 'node_modules/dep-a')).uid).toBe(owner.uid);

    // The setup state for the clean room: the same inodes again, not a copy, and nothing refused.
    const kept = await second.ws.keepSetupState(owner);
    expect(kept.refused).toEqual([]);
    expect(kept.roots).toEqual(['node_modules']);
    expect(statSync(join(setupStateTree(join(dir, 'state-2', 'setup-state')), INDEX)).ino).toBe(linked.ino);

    const run = (command: string) => second.runner.run({ command, workspace: second.ws.root, readOnlyBinds: second.ws.sandboxBinds, timeoutMs: 10_000 });
    for (const write of [`echo poisoned >> ${INDEX}`, `: > ${INDEX}`, `truncate -s 0 ${INDEX}`, `chmod 666 ${INDEX}`, `touch ${INDEX}`, `touch -d 2001-01-01 ${INDEX}`]) {
      expect({ write, exitCode: (await run(`${write} 2>/dev/null`)).exitCode }).toEqual({ write, exitCode: 1 });
    }
    // Its own directories: it may replace a file, add one and rename a package.
    const own = await run(`rm -f ${INDEX} && echo replaced > ${INDEX} && echo new > node_modules/dep-a/extra.js && mv node_modules/dep-a node_modules/dep-b && cat node_modules/dep-b/index.js`);
    expect(own).toMatchObject({ exitCode: 0, stdout: 'replaced\n' });

    expect(readFileSync(stored, 'utf8')).toBe('exports.a = 1;\n');
    expect(treeManifest(entry(), ['node_modules']).digest).toBe(manifestBefore);
    const third = await job();
    expect(third.setup.cache?.result).toBe('hit');
    expect(readFileSync(join(third.ws.root, INDEX), 'utf8')).toBe('exports.a = 1;\n');
  }, 60_000);
});

function readdirOne(path: string): string {
  const names = readdirSync(path);
  if (names.length !== 1) throw new Error(`expected one entry in ${path}, found ${names.join(', ')}`);
  return names[0]!;
}
