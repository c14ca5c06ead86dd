import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git } from '../support/git.js';

export const CLI = resolve('dist/src/cli/main.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
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

/** A repository with a real bug and a real test: `add` subtracts. */
export const BUGGY_REPO = {
  'lib.sh': 'add() { echo $(( $1 - $2 )); }\n',
  'test.sh': '#!/bin/bash\nset -e\n. ./lib.sh\n[ "$(add 2 3)" = 5 ] || { echo "add 2 3 gave $(add 2 3)"; exit 1; }\necho ok\n',
};
export const FIX_EDIT: [string, unknown] = ['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }];

/** The journal of a run that made no commit (its directory is named on stderr): what the model was shown. */
export function keptJournal(r: CliRun): string {
  const worktree = /worktree kept for inspection: (\S+)\/worktree/.exec(r.stderr)?.[1];
  if (!worktree) throw new Error(`no kept worktree in:\n${r.stderr}`);
  return readFileSync(join(worktree, 'journal.jsonl'), 'utf8');
}
