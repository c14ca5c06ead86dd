import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

export const CLI = resolve('dist/src/cli/main.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
}

/** A temp dir the sandbox user can pass through (mkdtemp makes 0700 dirs). Remove with `rmSync`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}

/** A git repo with one commit of `files`. */
export function makeRepo(parent: string, files: Record<string, string>): string {
  const repo = join(parent, 'repo');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init');
  return repo;
}

export function git(cwd: string, ...args: string[]): string {
  if (args[0] === 'init') mkdirSync(cwd, { recursive: true });
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd } }).trim();
}

export function branches(repo: string): string[] {
  return git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/greenfix/').split('\n').filter(Boolean);
}

/** A scripted model file: one entry per assistant turn. */
export function writeScript(dir: string, turns: Array<Array<[string, unknown]>>): string {
  const path = join(dir, `script-${Math.random().toString(36).slice(2)}.json`);
  const json = { turns: turns.map((calls) => ({ tool_calls: calls.map(([name, args]) => ({ name, arguments: args })) })) };
  writeFileSync(path, JSON.stringify(json));
  return path;
}

/** Runs the built CLI as a real process with a clean environment. */
export function runCli(args: string[], env: Record<string, string>, cwd?: string): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), ...env },
      ...(cwd ? { cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(last) as Record<string, unknown>;
      } catch {
        json = null;
      }
      done({ code, signal, stdout, stderr, json });
    });
  });
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A repository with a real bug and a real test: `add` subtracts. */
export const BUGGY_REPO = {
  'lib.sh': 'add() { echo $(( $1 - $2 )); }\n',
  'test.sh': '#!/bin/bash\nset -e\n. ./lib.sh\n[ "$(add 2 3)" = 5 ] || { echo "add 2 3 gave $(add 2 3)"; exit 1; }\necho ok\n',
};
export const FIX_EDIT: [string, unknown] = ['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }];
