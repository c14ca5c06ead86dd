import { join } from 'node:path';
import { BUGGY_REPO, branches, FIX_EDIT, keptJournal, runCli, writeScript, type CliRun } from './helpers.js';
import { FAKE_SECRETS as S } from '../support/fake-secrets.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/**
 * A planted secret never leaves the machine in a commit (issue 24): through the built CLI, a
 * scripted model that writes a GitHub token into the fix. `finish` is refused naming the file and
 * line, the model removes it within its budget, and only then is the commit made.
 */
describe('greenfix fix: a credential in the diff', () => {
  let dir: string;
  let repo: string;
  const fix = (turns: Array<Array<[string, unknown]>>): Promise<CliRun> =>
    runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--model', `scripted:${writeScript(dir, turns)}`, '--json'], { GREENFIX_WORKDIR: join(dir, 'work') });
  const PLANT: [string, unknown] = ['write_file', { path: 'deploy.env', content: `GITHUB_TOKEN=${S.githubClassicToken}\n` }];

  beforeEach(() => {
    dir = tempDir('greenfix-secret-');
    repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
  });
  afterEach(() => cleanup(dir));

  it('refuses finish while the token is in the tree; once removed and verified again, commits without it', async () => {
    const r = await fix([
      [FIX_EDIT, PLANT],
      [['run_tests', {}]],
      [['finish', { summary: 'fixed' }]],
      [['edit_file', { path: 'deploy.env', old: S.githubClassicToken, new: '${GITHUB_TOKEN}' }]],
      [['run_tests', {}]],
      [['finish', { summary: 'fixed, token read from the environment' }]],
    ]);
    expect(r.code).toBe(0);
    const commit = String(r.json?.commit);
    expect(git(repo, 'show', `${commit}:deploy.env`)).toBe('GITHUB_TOKEN=${GITHUB_TOKEN}');
    expect(git(repo, 'log', '-p', '--all')).not.toContain(S.githubClassicToken);
  });

  it('a model that gives up instead: no commit, no branch, and the value named nowhere', async () => {
    const r = await fix([[FIX_EDIT, PLANT], [['run_tests', {}]], [['finish', { summary: 'fixed' }]], [['finish', { summary: 'cannot', gave_up: true }]]]);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ commit: null });
    expect(branches(repo)).toEqual([]);
    const journal = keptJournal(r);
    expect(journal).toContain('deploy.env line 1: a GitHub token');
    expect(journal).not.toContain(S.githubClassicToken);
  });
});
