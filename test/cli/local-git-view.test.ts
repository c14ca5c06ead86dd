import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUGGY_REPO, FIX_EDIT, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/**
 * Issue 9 (1) through the built CLI, real git and real bwrap, with a scripted model:
 * local mode shows the sandbox a host-made git view, never the user's own `.git` (whose config
 * holds a remote URL with a token), and a `.git` rewritten by a setup or test command or by the
 * model's `run` changes nothing about what the next command can see.
 */
const TOKEN = 'ghp_localmodeSECRETtoken9d';
const APP_SECRET = 'PRIVATE_KEY=cli-app-dir-secret-9d';

describe('greenfix fix: the git the sandbox sees', () => {
  let dir: string;
  let repo: string;
  let appDir: string;

  beforeEach(() => {
    dir = tempDir('greenfix-gitview-');
    chmodSync(dir, 0o755);
    repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    git(repo, 'remote', 'add', 'origin', `https://user:${TOKEN}@example.com/owner/repo.git`);
    git(repo, 'config', 'credential.helper', `store --file=${join(dir, 'creds')}`);
    // greenfix runs from its own directory, which holds its .env.
    appDir = join(dir, 'app');
    mkdirSync(appDir);
    writeFileSync(join(appDir, '.env'), `${APP_SECRET}\n`, { mode: 0o644 });
  });
  afterEach(() => cleanup(dir));

  const fix = (script: string, extra: string[] = [], verify = 'bash test.sh'): Promise<CliRun> =>
    runCli(
      ['fix', '--repo', repo, '--task', 'add subtracts instead of adding', '--verify', verify, '--model', `scripted:${script}`, '--json', ...extra],
      { GREENFIX_WORKDIR: join(dir, 'work') },
      appDir,
    );

  /** Everything the model read: the journal's records. */
  const journalText = (): string => {
    const runs = join(dir, 'work', 'runs');
    return readdirSync(runs)
      .map((run) => join(runs, run, 'journal.jsonl'))
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
  };

  it("keeps the user's .git config out of reach while git status, diff and log work inside", async () => {
    const probe = `cat ${repo}/.git/config; git config -l; ls ${repo}/.git; echo ===; git status --short; git log --format=%s; git diff --stat`;
    const script = writeScript(dir, [[FIX_EDIT], [['run', { command: probe }]], [['run_tests', {}]], [['finish', { summary: 'fixed' }]]]);
    const r = await fix(script);
    expect(r.code).toBe(0);
    const journal = journalText();
    for (const text of [journal, r.stdout, r.stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('example.com');
    }
    // The model's run saw a working git: the edit as a change, the history, the diff.
    expect(journal).toContain(' M lib.sh');
    expect(journal).toContain('===\\n M lib.sh\\ninit\\n lib.sh | 2 +-');
    expect(journal).toMatch(/No such file or directory/);
    const branch = String(r.json?.branch);
    expect(git(repo, 'show', `${branch}:lib.sh`)).toBe('add() { echo $(( $1 + $2 )); }');
  });

  it.each([
    ['gitdir: .x with .x/commondir naming the app dir', (app: string) => `rm -f .git; mkdir -p .x; echo 'gitdir: .x' > .git; echo ${app} > .x/commondir; echo 'ref: refs/heads/main' > .x/HEAD`],
    ['gitdir naming the app dir', (app: string) => `rm -f .git; echo 'gitdir: ${app}' > .git`],
  ])('a setup command rewrites .git (%s): no later command, test run or model run reads the app dir; commit and cleanup work', async (_name, rewrite) => {
    const steal = `cat ${appDir}/.env; cat ${appDir}/../app/.env; ls -la ${appDir}; git status --short`;
    const script = writeScript(dir, [
      [['run', { command: `${rewrite(appDir)}; ${steal}` }]],
      [['run', { command: steal }]],
      [FIX_EDIT],
      [['run_tests', {}]],
      [['finish', { summary: 'fixed' }]],
    ]);
    const r = await fix(script, ['--setup', `${rewrite(appDir)}; ${steal}`], `${steal}; bash test.sh`);
    expect(r.code).toBe(0);
    const journal = journalText();
    for (const text of [journal, r.stdout, r.stderr]) expect(text).not.toContain(APP_SECRET);
    const branch = String(r.json?.branch);
    // Host-side git kept working on the pinned git dir: one commit, the verified tree, no .git junk.
    expect(git(repo, 'rev-parse', `${branch}^{tree}`)).toBe(r.json?.verifiedTree);
    expect(git(repo, 'ls-tree', '-r', '--name-only', branch)).toBe('lib.sh\ntest.sh');
    expect(git(repo, 'log', '-p', branch)).not.toContain(APP_SECRET);
    // Cleanup survived the rewritten .git: the worktree is gone and forgotten.
    expect(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree '))).toEqual([`worktree ${repo}`]);
    expect(readFileSync(join(appDir, '.env'), 'utf8')).toBe(`${APP_SECRET}\n`);
  });
});
