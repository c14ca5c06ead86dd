import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { editFileTool } from '../../src/agent/tools/edit-file.js';
import { readFileTool } from '../../src/agent/tools/read-file.js';
import { runTestsTool } from '../../src/agent/tools/run-tests.js';
import { runTool } from '../../src/agent/tools/run.js';
import type { ToolContext } from '../../src/agent/tools/types.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { sandboxFileOwner } from '../../src/sandbox/ownership.js';
import { prepareWorkspaceOwnership } from '../../src/sandbox/prepare-workspace-ownership.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { openRegularFile, RegularFileError } from '../../src/util/regular-file.js';
import { runProcess } from '../../src/util/run-process.js';
import { git } from '../../src/workspace/git.js';
import type { GitWorkspace } from '../../src/workspace/git-workspace.js';
import { addWorktree, removeWorktree } from '../../src/workspace/worktree.js';
import { TempDirs } from '../support/temp-dir.js';

/**
 * Issue 9 (2): the host's own files (full outputs, the verified output tail) used to live in the
 * writable worktree (`.greenfix/`). A test command could swap its log for a symlink to a
 * root-only file (shown as the "verified output tail"), plant a FIFO (blocking the host), or the
 * repository could commit a `.greenfix` symlink (the host then writes logs anywhere).
 */
const SECRET = 'PRIVATE_KEY=host-files-secret-9c';
const LIMITS = { outputChars: 4000, runTimeoutSec: 20, runTimeoutMaxSec: 20, testTimeoutSec: 20 };

const temp = new TempDirs();
let top: string;
let secret: string;
let victim: string;
let repo: string;
let jobDir: string;
let ws: GitWorkspace;
let sandbox: Sandbox;

/** Every path under `dir` except the job's own directory, with size and mtime. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (path === jobDir) continue;
      const st = statSync(path, { throwIfNoEntry: false });
      const rel = relative(dir, path);
      // The tree hash writes blobs into the repository's object store (host git, by design).
      if (rel === 'repo/.git/objects') continue;
      out.push(`${rel} ${entry.isSymbolicLink() ? 'link' : (st?.size ?? '?')} ${st?.mtimeMs}`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out.sort();
}

beforeAll(async () => {
  sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined });
});
beforeEach(async () => {
  top = temp.make('greenfix-hostfiles-');
  chmodSync(top, 0o755);
  secret = join(top, 'root-only.key');
  writeFileSync(secret, `${SECRET}\n`, { mode: 0o600 });
  victim = join(top, 'victim');
  mkdirSync(victim);
  chmodSync(victim, 0o777);
  repo = join(top, 'repo');
  await git(['init', '-q', '-b', 'main', repo], { cwd: top });
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  // The repository commits a `.greenfix` symlink to a host directory.
  execFileSync('ln', ['-s', victim, join(repo, '.greenfix')]);
  await git(['add', '-A'], { cwd: repo });
  await git(['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'base'], { cwd: repo });
  jobDir = join(top, 'job');
  mkdirSync(jobDir, { mode: 0o711 });
  ws = await addWorktree({ repo, path: join(jobDir, 'worktree'), ref: 'main', stateDir: join(jobDir, 'index') });
  await prepareWorkspaceOwnership(ws.root, sandboxFileOwner());
});
afterEach(async () => {
  await removeWorktree(repo, ws.root);
  temp.cleanup();
});

const ctx = (verifyCommand: string | null = null): ToolContext => ({
  workspace: ws,
  sandbox,
  verifyCommand,
  verified: null,
  fileOwner: sandboxFileOwner(),
  limits: LIMITS,
});

describe('nothing of the host lives in the worktree', () => {
  it('a committed .greenfix symlink: the host writes no log through it, nor anywhere outside the job', async () => {
    const before = listing(top);
    const r = await runTool.execute({ command: 'seq 1 3000; ls -la .greenfix/ || true' }, ctx());
    expect(r.ok).toBe(true);
    const t = await runTestsTool.execute({}, ctx('echo tests ok'));
    expect(t.ok).toBe(true);
    expect(readdirSync(victim)).toEqual([]);
    expect(listing(top)).toEqual(before);
    // The full output is named, outside the worktree, and readable with read_file.
    const full = /full output in (\S+)/.exec(r.output)?.[1] ?? '';
    expect(relative(ws.root, full).startsWith('..')).toBe(true);
    const read = await readFileTool.execute({ path: full, offset: 3000, limit: 1 }, ctx());
    expect(read.output).toMatch(/^ {2}3000 │ 3000\n/);
  });

  it('a test command that swaps its logs for a symlink to a root-only file or a FIFO: no secret, no block, nothing written outside', async () => {
    const first = await runTool.execute({ command: 'seq 1 3000' }, ctx());
    const known = /full output in (\S+)/.exec(first.output)?.[1] ?? '';
    expect(known).not.toBe('');
    const before = listing(top);
    // The strongest attacker: it knows the host's paths (the tool result printed one) and the
    // worktree names of old.
    const attack = [
      `ln -sf ${secret} ${known} 2>/dev/null; ln -sf ${secret} ${known.replace(/run-1/, 'tests-1')} 2>/dev/null`,
      `mkfifo ${known.replace(/run-1/, 'tests-2')} 2>/dev/null`,
      `rm -f .greenfix; mkdir .greenfix; ln -s ${secret} .greenfix/tests-1.log; mkfifo .greenfix/tests-2.log .greenfix/run-2.log`,
      'echo attack-done',
    ].join('; ');
    const started = Date.now();
    const t1 = await runTestsTool.execute({}, ctx(attack));
    const t2 = await runTestsTool.execute({}, ctx('echo second run'));
    const r2 = await runTool.execute({ command: 'echo model run' }, ctx());
    expect(Date.now() - started).toBeLessThan(30_000);
    for (const result of [t1, t2, r2]) expect(result.output).not.toContain(SECRET);
    // Replacing the committed .greenfix is a source change: that run is void, and says so.
    expect(t1.ok).toBe(false);
    expect(t1.output).toMatch(/changed source files: \.greenfix — verification void/);
    expect(t2.ok).toBe(true);
    expect(t2.verified?.outputTail).toBe('second run');
    expect(r2.output).toBe('exit code: 0\n--- stdout ---\nmodel run');
    expect(readFileSync(known, 'utf8').split('\n')).toHaveLength(3001);
    expect(listing(top)).toEqual(before);
    expect(readdirSync(victim)).toEqual([]);
  });
});

describe('the host never follows or waits on a planted file', () => {
  it('refuses to write command output through a symlink or into a FIFO, at once', async () => {
    const dir = temp.make('greenfix-plant-');
    const link = join(dir, 'out.log');
    execFileSync('ln', ['-s', secret, link]);
    const fifo = join(dir, 'fifo.log');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const argv = ['/bin/echo', 'x'];
    await expect(runProcess({ argv, cwd: dir, env: {}, timeoutMs: 5000, outputFile: link })).rejects.toMatchObject({ reason: 'symlink' });
    await expect(runProcess({ argv, cwd: dir, env: {}, timeoutMs: 5000, outputFile: fifo })).rejects.toMatchObject({ reason: 'not-regular' });
    expect(() => openRegularFile(fifo, 'read')).toThrow(RegularFileError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readFileSync(secret, 'utf8')).toBe(`${SECRET}\n`);
  });
});

describe("the model's file tools on planted files", () => {
  it('read_file and edit_file refuse a FIFO without blocking, and a symlink leading out', async () => {
    await runTool.execute({ command: `mkfifo pipe; ln -s ${secret} key; ln -s /dev/zero zero` }, ctx());
    const started = Date.now();
    const fifo = await readFileTool.execute({ path: 'pipe' }, ctx()).catch((e: Error) => ({ ok: false, output: e.message }));
    const edit = await editFileTool.execute({ path: 'pipe', old: 'a', new: 'b' }, ctx()).catch((e: Error) => ({ ok: false, output: e.message }));
    const key = await readFileTool.execute({ path: 'key' }, ctx()).catch((e: Error) => ({ ok: false, output: e.message }));
    const zero = await readFileTool.execute({ path: 'zero' }, ctx()).catch((e: Error) => ({ ok: false, output: e.message }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fifo.output).toMatch(/not a regular file/);
    expect(edit.output).toMatch(/not a regular file/);
    expect(key.output).toMatch(/a symlink leads outside the workspace/);
    expect(zero.output).toMatch(/a symlink leads outside the workspace/);
    for (const r of [fifo, edit, key, zero]) expect(r.output).not.toContain(SECRET);
  });
});
