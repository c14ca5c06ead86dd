import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUGGY_REPO, FIX_EDIT, branches, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/** End to end through the built CLI, real git, real bwrap, scripted models. */
describe('greenfix fix (scripted model)', () => {
  let dir: string;
  let repo: string;
  const fix = (script: string, ...extra: string[]): Promise<CliRun> =>
    runCli(['fix', '--repo', repo, '--task', 'add subtracts instead of adding', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json', ...extra], {
      GREENFIX_WORKDIR: join(dir, 'work'),
    });

  beforeEach(() => {
    dir = tempDir('greenfix-e2e-');
    repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
  });
  afterEach(() => cleanup(dir));

  it('fixes a real bug: exit 0, one commit whose tree is the verified tree', async () => {
    const script = writeScript(dir, [[['read_file', { path: 'lib.sh' }]], [FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]]);
    const r = await fix(script);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified', steps: 4 });
    const branch = String(r.json?.branch);
    expect(branches(repo)).toEqual([branch]);
    expect(git(repo, 'rev-parse', `${branch}^{tree}`)).toBe(r.json?.verifiedTree);
    expect(git(repo, 'rev-parse', `${branch}^`)).toBe(git(repo, 'rev-parse', 'main'));
    expect(git(repo, 'show', `${branch}:lib.sh`)).toBe('add() { echo $(( $1 + $2 )); }');
    expect(git(repo, 'log', '-1', '--format=%B', branch)).toContain(`Verified-tree: ${String(r.json?.verifiedTree)}`);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(r.stderr).toMatch(/\[step 2\]\s+✓ edit_file/);
  });

  it('refuses finish without a test run: exit 1, no commit', async () => {
    const script = writeScript(dir, [[FIX_EDIT], [['finish', { summary: 'trust me' }]], [['finish', { summary: 'gave up', gave_up: true }]]]);
    const r = await fix(script);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'gave_up', commit: null, verifiedTree: null });
    expect(r.stderr).toMatch(/✗ finish/);
    expect(branches(repo)).toEqual([]);
  });

  it('does not count a green run when the tree changed afterwards', async () => {
    const script = writeScript(dir, [
      [FIX_EDIT],
      [['run_tests', {}]],
      [['edit_file', { path: 'lib.sh', old: 'add()', new: 'add ()' }]],
      [['finish', { summary: 'done' }]],
    ]);
    const r = await fix(script);
    expect(r.code).toBe(1);
    expect(r.json?.commit).toBeNull();
    expect(branches(repo)).toEqual([]);
  });

  it('stops a loop as stuck', async () => {
    const read: [string, unknown] = ['read_file', { path: 'lib.sh' }];
    const script = writeScript(dir, Array.from({ length: 12 }, () => [read]));
    const r = await fix(script);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'stuck', commit: null });
    expect(r.stderr).toMatch(/warning: You seem stuck/);
  });

  it('resumes after kill -9 mid-run without repeating an effect', async () => {
    // The second tool call appends a line: done twice, the line would be there twice.
    const append: [string, unknown] = ['edit_file', { path: 'lib.sh', old: '$1 + $2 )); }', new: '$1 + $2 )); }\n# checked' }];
    const script = writeScript(dir, [[FIX_EDIT], [append], [['run_tests', {}]], [['finish', { summary: 'fixed' }]]]);
    const crashed = await runCli(
      ['fix', '--repo', repo, '--task', 'resume me', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'],
      { GREENFIX_WORKDIR: join(dir, 'work'), GREENFIX_CRASH_AT: 'after_tool:2' },
    );
    expect(crashed.signal).toBe('SIGKILL');
    expect(branches(repo)).toEqual([]);
    const resumed = await runCli(
      ['fix', '--repo', repo, '--task', 'resume me', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json', '--resume'],
      { GREENFIX_WORKDIR: join(dir, 'work') },
    );
    expect(resumed.code).toBe(0);
    const lib = git(repo, 'show', `${String(resumed.json?.branch)}:lib.sh`);
    expect(lib.match(/# checked/g)).toHaveLength(1);
    expect(git(repo, 'rev-parse', `${String(resumed.json?.branch)}^{tree}`)).toBe(resumed.json?.verifiedTree);
  });

  it.each(['before_publish', 'after_publish'])('crash at %s, then --resume: one branch, one commit', async (point) => {
    const script = writeScript(dir, [[FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'fixed' }]]]);
    const args = ['fix', '--repo', repo, '--task', 'publish once', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'];
    const env = { GREENFIX_WORKDIR: join(dir, 'work') };
    const crashed = await runCli(args, { ...env, GREENFIX_CRASH_AT: point });
    expect(crashed.signal).toBe('SIGKILL');
    const resumed = await runCli([...args, '--resume'], env);
    expect(resumed.code).toBe(0);
    const branch = String(resumed.json?.branch);
    expect(branches(repo)).toEqual([branch]);
    expect(git(repo, 'rev-list', '--count', `main..${branch}`)).toBe('1');
    expect(git(repo, 'rev-parse', branch)).toBe(resumed.json?.commit);
  });

  it('the same task twice: each run its own directory and branch; greenfix log shows the latest, --run names either', async () => {
    const env = { GREENFIX_WORKDIR: join(dir, 'work') };
    const runDir = (r: CliRun): string => /greenfix log --run (\S+)/.exec(r.stderr)?.[1] ?? 'none';
    const first = await fix(writeScript(dir, [[['finish', { summary: 'not today', gave_up: true }]]]));
    expect(first.code).toBe(1);
    const second = await fix(writeScript(dir, [[FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'add adds now' }]]]));
    expect(second.code).toBe(0);
    expect(runDir(second)).not.toBe(runDir(first));
    expect(readdirSync(join(dir, 'work', 'runs'))).toHaveLength(2);
    expect(branches(repo)).toEqual([String(second.json?.branch)]);
    const latest = await runCli(['log', '--quiet'], env);
    expect(latest.code).toBe(0);
    expect(latest.stdout).toContain('add adds now');
    expect(latest.stdout).not.toContain('not today');
    const earlier = await runCli(['log', '--run', runDir(first), '--quiet'], env);
    expect(earlier.code).toBe(0);
    expect(earlier.stdout).toContain('not today');
    // A third run of the task gets a third directory, and --resume looks only at the latest one.
    const third = await fix(writeScript(dir, [[['finish', { summary: 'third', gave_up: true }]]]));
    expect(new Set([runDir(first), runDir(second), runDir(third)]).size).toBe(3);
  });

  it('a repository with no test command: exit 2 before setup and before any model call, nothing left behind', async () => {
    const bare = makeRepo(join(dir, 'bare'), { 'README.md': '# notes\n', 'notes.txt': 'no tests here\n' });
    const script = writeScript(dir, [[['run', { command: 'touch model-was-asked' }]], [['finish', { summary: 'x', gave_up: true }]]]);
    const r = await runCli(['fix', '--repo', bare, '--task', 'fix it', '--model', `scripted:${script}`, '--json'], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/greenfix: no test command: greenfix found none to run .* the model was not asked\. Give one: greenfix fix --verify/);
    expect(r.stderr).not.toMatch(/\[step 1\]|setup:/);
    expect(readdirSync(join(dir, 'work', 'runs'))).toEqual([]);
    expect(git(bare, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree '))).toHaveLength(1);
  });

  it('answers usage errors with exit 2', async () => {
    const noTask = await runCli(['fix', '--repo', repo], {});
    expect(noTask.code).toBe(2);
    expect(noTask.stderr).toMatch(/missing --task/);
    const notRepo = await runCli(['fix', '--repo', dir, '--task', 'x', '--model', 'scripted:/nonexistent.json'], {});
    expect(notRepo.code).toBe(2);
    const resume = await runCli(['fix', '--repo', repo, '--task', 'never ran', '--resume', '--model', `scripted:${writeScript(dir, [])}`], {
      GREENFIX_WORKDIR: join(dir, 'work'),
    });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/nothing to resume/);
    // No model configured at all (a new user's first run): said before any setup runs.
    const noKey = await runCli(['fix', '--repo', repo, '--task', 'x', '--verify', 'bash test.sh'], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/OPENAI_API_KEY: not set, and https:\/\/api\.openai\.com\/v1 needs one/);
    expect(noKey.stderr).not.toMatch(/setup|baseline|worktree/);
    expect(readFileSync(join(repo, 'lib.sh'), 'utf8')).toBe(BUGGY_REPO['lib.sh']);
  });
});

describe('greenfix fix on a machine without its system packages', () => {
  it('names each missing package and how to install it: exit 2', async () => {
    const r = await runCli(['fix', '--repo', '.', '--task', 'x'], { PATH: '/nonexistent' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/git is not installed.*apt-get install git/);
    expect(r.stderr).toMatch(/bwrap is not installed.*apt-get install bubblewrap/);
  });
});
