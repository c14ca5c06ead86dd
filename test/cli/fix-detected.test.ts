import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_FIX, NODE_REPO, NODE_REPO_WITH_LOG } from '../support/node-repo.js';
import { runCli, writeScript } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/** First use of the CLI: only --repo and --task; setup and verify are detected from the repository. */
describe('greenfix fix with detected commands', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('greenfix-detected-');
  });
  afterEach(() => cleanup(dir));

  it('runs the detected setup (npm ci) and test command (npm test) and commits the verified tree', async () => {
    const repo = makeRepo(join(dir, 'repo'), NODE_REPO);
    const script = writeScript(dir, [[NODE_FIX], [['run_tests', {}]], [['finish', { summary: 'sum adds now' }]]]);
    const r = await runCli(['fix', '--repo', repo, '--task', 'sum subtracts', '--model', `scripted:${script}`, '--json'], { GREENFIX_WORKDIR: join(dir, 'work') });

    expect(r.stderr).toContain('verify: npm test; setup: npm ci');
    expect(r.stderr).toContain('greenfix: setup: npm ci');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified', branch: expect.stringMatching(/^greenfix\/sum-subtracts/) });
    const branch = String(r.json?.branch);
    expect(git(repo, 'rev-parse', `${branch}^{tree}`)).toBe(r.json?.verifiedTree);
    expect(git(repo, 'show', `${branch}:sum.js`)).toBe('exports.sum = (a, b) => a + b;');
    // What setup wrote is set aside: the test saw it, the commit does not hold it.
    expect(git(repo, 'diff', '--name-only', `main..${branch}`)).toBe('sum.js');
  });

  it('tests that write a log on every run, run before and after the fix: verified, the log not committed', async () => {
    const repo = makeRepo(join(dir, 'repo'), NODE_REPO_WITH_LOG);
    const script = writeScript(dir, [[['run_tests', {}]], [NODE_FIX], [['run_tests', {}]], [['finish', { summary: 'sum adds now' }]]]);
    const r = await runCli(['fix', '--repo', repo, '--task', 'sum subtracts', '--model', `scripted:${script}`, '--json'], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.code).toBe(0);
    const branch = String(r.json?.branch);
    expect(git(repo, 'diff', '--name-only', `main..${branch}`)).toBe('sum.js');
    expect(git(repo, 'ls-tree', '-r', '--name-only', branch).split('\n')).not.toContain('test-run.log');
  });

  (process.getuid?.() === 0 ? it : it.skip)('as root, refuses a GREENFIX_WORKDIR under a 0700 directory before doing anything: exit 2', async () => {
    const repo = makeRepo(join(dir, 'repo'), NODE_REPO);
    const home = join(dir, 'root-home');
    mkdirSync(home);
    chmodSync(home, 0o700);
    const script = writeScript(dir, [[NODE_FIX]]);
    const r = await runCli(['fix', '--repo', repo, '--task', 'sum subtracts', '--model', `scripted:${script}`], { GREENFIX_WORKDIR: join(home, 'work') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`greenfix: the workdir ${join(home, 'work')} is not reachable by the sandbox user (uid 65534) because ${home} (mode 0700) has no o+x`);
    expect(git(repo, 'for-each-ref', 'refs/heads/greenfix/')).toBe('');
  });
});
