import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJournal } from '../../src/agent/journal.js';
import { CLI, branches } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';
import { startTty, type Tty } from './tmux.js';

type Call = [string, Record<string, unknown>];
const script = (dir: string, turns: Call[][]): string => {
  const path = join(dir, 'script.json');
  writeFileSync(path, JSON.stringify({ turns: turns.map((calls) => ({ tool_calls: calls.map(([name, args]) => ({ name, arguments: args })) })) }));
  return path;
};
const sleepers = (marker: string): string[] => {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

/** `greenfix chat` in a real pseudo-terminal (tmux), driving the built CLI with a scripted model. */
describe('greenfix chat in a terminal', () => {
  let dir: string;
  let repo: string;
  let tty: Tty | null = null;
  beforeEach(() => {
    dir = tempDir('greenfix-chat-');
    repo = makeRepo(join(dir, 'repo'), { 'test.sh': '#!/bin/bash\n[ -f greeting.txt ] || { echo "no greeting.txt"; exit 1; }\necho ok\n' });
  });
  afterEach(() => {
    tty?.kill();
    tty = null;
    cleanup(dir);
  });
  const chat = (modelScript: string, ...extra: string[]): Tty =>
    startTty(`cd ${dir} && exec env GREENFIX_WORKDIR=${join(dir, 'work')} HOME=${dir} ${process.execPath} ${CLI} chat --repo ${repo} --verify 'bash test.sh' --model scripted:${modelScript} ${extra.join(' ')}`, {});

  it('two requests in one session, approvals y/n/a, /diff, /commit gated on /tests, /undo, /history, unknown commands', async () => {
    const s = script(dir, [
      [['write_file', { path: 'greeting.txt', content: 'hello\n' }]],
      [['run', { command: 'cat greeting.txt' }]],
      [['finish', { summary: 'wrote greeting.txt', gave_up: true }]],
      [['run', { command: 'echo one' }]],
      [['run', { command: 'echo two' }]],
      [['write_file', { path: 'extra.txt', content: 'extra\n' }]],
      [['finish', { summary: 'more done', gave_up: true }]],
    ]);
    tty = chat(s);
    await tty.waitFor(/greenfix> $/m);
    tty.line('add greeting.txt');
    // greeting.txt is named in the request: no question. `run` asks: answered n.
    await tty.waitFor(/\[approve\] run: cat greeting.txt {2}\(y = yes, n = no, a = always this session, e = edit\)/);
    tty.line('n');
    await tty.waitFor(/→ gave_up: wrote greeting.txt/);

    tty.line('/commit');
    await tty.waitFor(/not committed: the tests have not passed on this tree/);
    tty.line('/diff');
    await tty.waitFor(/\+\+\+ b\/greeting.txt\n@@ -0,0 \+1 @@\n\+hello/);
    tty.line('/tests');
    await tty.waitFor(/tests passed \(exit code 0/);
    tty.line('/commit');
    const committed = await tty.waitFor(/committed [0-9a-f]{12} on (greenfix\/add-greeting-txt-[0-9a-z]+)/);
    const branch = /committed [0-9a-f]{12} on (\S+)/.exec(committed)?.[1] ?? '';
    expect(branches(repo)).toEqual([branch]);
    expect(git(repo, 'show', `${branch}:greeting.txt`)).toBe('hello');
    expect(git(repo, 'rev-parse', `${branch}^`)).toBe(git(repo, 'rev-parse', 'main'));

    // The second request has the first as context; `a` answers for every later run of the session.
    tty.line('and more');
    await tty.waitFor(/\[approve\] run: echo one/);
    tty.line('a');
    await tty.waitFor(/\[approve\] write_file: extra.txt {2}\(y = yes, n = no, a = always this session\)/);
    expect(tty.screen()).not.toMatch(/\[approve\] run: echo two/);
    tty.line('y');
    await tty.waitFor(/→ gave_up: more done/);
    const worktree = /worktree (\S+);/.exec(tty.screen())?.[1] ?? '';
    expect(readFileSync(join(worktree, 'extra.txt'), 'utf8')).toBe('extra\n');

    tty.line('/undo');
    await tty.waitFor(/reverted extra.txt/);
    expect(existsSync(join(worktree, 'extra.txt'))).toBe(false);
    tty.line('/history');
    await tty.waitFor(/1\. add greeting.txt\n {3}→ gave_up: wrote greeting.txt\n2\. and more\n {3}→ gave_up: more done/);
    tty.line('/frobnicate');
    await tty.waitFor(/unknown command \/frobnicate; \/help lists the commands/);
    tty.line('/exit');
    await tty.waitForExit();

    const journal = readJournal(join(repo, '.git', 'greenfix', 'chat.jsonl'));
    expect(journal.filter((r) => r.type === 'turn')).toEqual([expect.objectContaining({ text: 'and more' })]);
    const declined = journal.find((r) => r.type === 'tool_end' && r.name === 'run');
    expect(declined).toMatchObject({ result: { ok: false, output: expect.stringMatching(/^the user declined this command/) } });
    // The second request saw the first: its first model call had both requests in its messages.
    expect(journal.filter((r) => r.type === 'tool_end' && r.name === 'run' && r.result.ok)).toHaveLength(2);
  }, 120_000);

  it('Ctrl-C stops a long command (its process group is gone) and a second Ctrl-C at the prompt exits; resume after kill -9', async () => {
    const marker = `sleep 7${Math.floor(Math.random() * 900 + 100)}`;
    const s = script(dir, [
      [['run', { command: `${marker}; echo woke`, timeout: 600 }]],
      [['finish', { summary: 'after the interruption', gave_up: true }]],
      [['run', { command: `${marker}`, timeout: 600 }]],
      [['finish', { summary: 'resumed fine', gave_up: true }]],
    ]);
    tty = chat(s, '--yes');
    await tty.waitFor(/greenfix> $/m);
    tty.line('sleep a long time');
    await tty.waitFor(/✓|run \{|model: 1 tool call/);
    const deadline = Date.now() + 20_000;
    while (sleepers(marker).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(sleepers(marker).length).toBeGreaterThan(0);
    tty.send('C-c');
    await tty.waitFor(/request stopped; the journal notes it/);
    expect(sleepers(marker)).toEqual([]);
    const journalPath = join(repo, '.git', 'greenfix', 'chat.jsonl');
    const records = readJournal(journalPath);
    expect(records.find((r) => r.type === 'tool_end' && r.name === 'run')).toMatchObject({ result: { output: expect.stringMatching(/^killed: the run was cancelled/) } });
    expect(records.at(-1)).toMatchObject({ type: 'observation', text: expect.stringMatching(/interrupted the last request with Ctrl-C/) });

    tty.send('C-c');
    await tty.waitFor(/press Ctrl-C again to exit/);
    tty.send('C-c');
    await tty.waitForExit();

    // A new process resumes the session; kill -9 it in the middle of a command, and resume again.
    tty.kill();
    tty = chat(s, '--yes');
    await tty.waitFor(/\(resumed: 1 earlier request\(s\)\)/);
    tty.line('next');
    await tty.waitFor(/→ gave_up: after the interruption/);
    tty.line('and sleep again');
    const until = Date.now() + 20_000;
    while (sleepers(marker).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(sleepers(marker).length).toBeGreaterThan(0);
    process.kill(tty.panePid(), 'SIGKILL');
    await tty.waitForExit();
    // The sandbox dies with its parent: no command outlives a killed greenfix.
    const gone = Date.now() + 20_000;
    while (sleepers(marker).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    expect(sleepers(marker)).toEqual([]);
    tty.kill();
    tty = chat(s, '--yes');
    await tty.waitFor(/\(resumed: 3 earlier request\(s\)\)/);
    tty.line('after the crash');
    await tty.waitFor(/→ gave_up: resumed fine/);
    const after = readJournal(journalPath);
    expect(after.find((r) => r.type === 'tool_end' && r.repair === 'outcome_unknown')).toBeDefined();
    tty.line('/exit');
    await tty.waitForExit();
  }, 120_000);

  it('without a terminal: plain lines, approvals refused with one line naming --yes, nothing run', async () => {
    const s = script(dir, [[['run', { command: 'touch ran.txt' }]], [['finish', { summary: 'could not run', gave_up: true }]]]);
    const child = spawn(process.execPath, [CLI, 'chat', '--repo', repo, '--verify', 'bash test.sh', '--model', `scripted:${s}`], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GREENFIX_WORKDIR: join(dir, 'work'), TERM: 'xterm-256color' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end('please run it\n/bogus\n');
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    expect(stderr.match(/approvals are refused without a terminal; start with --yes/g)).toHaveLength(1);
    expect(stdout).toMatch(/→ gave_up: could not run/);
    expect(stdout).toMatch(/unknown command \/bogus/);
    expect(stdout).not.toMatch(/\x1b\[/);
    const worktree = /worktree (\S+);/.exec(stdout)?.[1] ?? '';
    expect(existsSync(join(worktree, 'ran.txt'))).toBe(false);
    const ends = readJournal(join(repo, '.git', 'greenfix', 'chat.jsonl')).filter((r) => r.type === 'tool_end' && r.name === 'run');
    expect(ends).toEqual([expect.objectContaining({ result: { ok: false, output: expect.stringMatching(/nobody can answer \(no terminal\).*--yes/) } })]);
  }, 60_000);
});
