import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { branches, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';

const PRIMES = [
  'n, p = 2, []',
  'while len(p) < 20:',
  '    if all(n % q for q in p):',
  '        p.append(n)',
  '    n += 1',
  'print(*p)',
  '',
].join('\n');

const TASK = 'write a script that prints the first 20 primes';

/** Scripts from nothing, end to end through the built CLI: real git, real bwrap, a scripted model. */
describe('greenfix fix on an empty repository and with --init', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('greenfix-empty-')));
  afterEach(() => cleanup(dir));

  const fix = (repo: string, ...extra: string[]): Promise<CliRun> => {
    const script = writeScript(dir, [
      [['list_files', {}]],
      [['write_file', { path: 'primes.py', content: PRIMES }]],
      [['run_tests', {}]],
      [['finish', { summary: 'primes.py prints the first 20 primes' }]],
    ]);
    return runCli(['fix', '--repo', repo, '--task', TASK, '--verify', 'python3 primes.py', '--model', `scripted:${script}`, '--json', ...extra], {
      GREENFIX_WORKDIR: join(dir, 'work'),
    });
  };

  /** One root commit on the branch, holding exactly the script, whose tree is the verified one. */
  function expectOneCommitWithTheScript(repo: string, r: CliRun): void {
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified' });
    const branch = String(r.json?.branch);
    expect(branches(repo)).toEqual([branch]);
    expect(git(repo, 'rev-list', '--count', branch)).toBe('1');
    expect(git(repo, 'rev-list', '--parents', '-n', '1', branch).split(' ')).toHaveLength(1);
    expect(git(repo, 'ls-tree', '-r', '--name-only', branch)).toBe('primes.py');
    expect(git(repo, 'rev-parse', `${branch}^{tree}`)).toBe(r.json?.verifiedTree);
    expect(git(repo, 'show', `${branch}:primes.py`)).toBe(PRIMES.trimEnd());
    expect(r.stderr).toMatch(/at the empty tree \(the repository has no commits\)/);
  }

  it('an empty repository (no commits): the base is the empty tree, the branch one root commit', async () => {
    const repo = join(dir, 'repo');
    git(repo, 'init', '-q', '-b', 'main');
    const r = await fix(repo);
    expectOneCommitWithTheScript(repo, r);
    // HEAD is still unborn: greenfix wrote only its branch.
    expect(() => git(repo, 'rev-parse', '--verify', '--quiet', 'HEAD')).toThrow();
  });

  it('a plain directory: refused without --init (naming it), made a repository with it', async () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    const refused = await fix(plain);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not a git repository .*--init makes it one/);
    expect(refused.json).toBeNull();

    const r = await fix(plain, '--init');
    expectOneCommitWithTheScript(plain, r);
  });

  it('the verify command still gates: a wrong script on the empty base is not committed', async () => {
    const repo = join(dir, 'repo');
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({
      turns: [
        { tool_calls: [{ name: 'write_file', arguments: { path: 'primes.py', content: 'print(primes)\n' } }] },
        { tool_calls: [{ name: 'run_tests', arguments: {} }] },
        { tool_calls: [{ name: 'finish', arguments: { summary: 'done' } }] },
        { tool_calls: [{ name: 'finish', arguments: { summary: 'gave up', gave_up: true } }] },
      ],
    }));
    const r = await runCli(['fix', '--repo', repo, '--task', TASK, '--verify', 'python3 primes.py', '--model', `scripted:${join(dir, 'bad.json')}`, '--json'], {
      GREENFIX_WORKDIR: join(dir, 'work'),
    });
    expect(r.code).toBe(1);
    expect(r.json?.commit).toBeNull();
    expect(branches(repo)).toEqual([]);
  });
});
