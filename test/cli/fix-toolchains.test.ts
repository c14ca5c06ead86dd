import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { branches, runCli, writeScript, type CliRun } from './helpers.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { HOME_SECRETS, makeToolchainHome } from '../support/toolchain-home.js';

const PYTHON_REPO = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  '.gitignore': '__pycache__/\n',
};
const RUST_REPO = {
  'Cargo.toml': '[package]\nname = "adder"\nversion = "0.1.0"\nedition = "2021"\n',
  'src/add.sh': 'add() { echo $(( $1 - $2 )); }\n',
  'tests/add.sh': '. ./src/add.sh\n[ "$(add 2 3)" = 5 ]\n',
};

/**
 * Toolchains installed the way developers install them (pyenv, rustup + cargo under a home made
 * here), through the built CLI, real bwrap and a scripted model: the sandbox sees them read-only
 * and their shims work, and the home's credentials stay out of reach.
 */
describe('greenfix fix with the user’s own toolchains', () => {
  let dir: string;
  let home: string;
  let path: string;
  const cli = (args: string[]): Promise<CliRun> => runCli(args, { HOME: home, PATH: path, GREENFIX_WORKDIR: join(dir, 'work') });
  const journalOf = (): string => {
    const runs = join(dir, 'work', 'runs');
    return readdirSync(runs).map((run) => readFileSync(join(runs, run, 'journal.jsonl'), 'utf8')).join('\n');
  };

  beforeEach(() => {
    dir = tempDir('greenfix-toolchains-');
    home = join(dir, 'home');
    path = makeToolchainHome(home).path;
  });
  afterEach(() => cleanup(dir));

  it('fixes a Python repository whose runner lives in a pyenv version; ~/.ssh, ~/.npmrc and cargo credentials stay unreadable', async () => {
    const repo = makeRepo(join(dir, 'repo'), PYTHON_REPO);
    const peek = `cat ${home}/.ssh/id_ed25519 ${home}/.npmrc ${home}/.cargo/credentials.toml; ls -a ${home} ${home}/.cargo; env | sort`;
    const script = writeScript(dir, [
      [['run', { command: peek }]],
      [['edit_file', { path: 'calc.py', old: 'a - b', new: 'a + b' }]],
      [['run_tests', {}]],
      [['finish', { summary: 'add adds' }]],
    ]);
    const r = await cli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'python -m minitest', '--model', `scripted:${script}`, '--json']);
    expect(r.stderr).toContain(`toolchains shown read-only: ${home}/.pyenv (pyenv)`);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified' });
    const branch = String(r.json?.branch);
    expect(git(repo, 'show', `${branch}:calc.py`)).toContain('return a + b');
    const journal = journalOf();
    expect(journal).toContain('1 passed, 0 failed');
    expect(journal).toContain(`PYENV_ROOT=${home}/.pyenv`);
    expect(journal).toContain(`${home}/.ssh/id_ed25519: No such file or directory`);
    expect(journal).toContain(`${home}/.npmrc: No such file or directory`);
    for (const secret of Object.values(HOME_SECRETS)) expect(`${journal}${r.stdout}${r.stderr}`).not.toContain(secret);
  });

  it('fixes a Rust-style crate through a rustup proxy in ~/.cargo/bin: only cargo’s bin and RUSTUP_HOME are shown', async () => {
    const repo = makeRepo(join(dir, 'repo'), RUST_REPO);
    const script = writeScript(dir, [
      [['run', { command: `cat ${home}/.cargo/credentials.toml; cargo test; echo "RUSTUP_HOME=$RUSTUP_HOME"` }]],
      [['edit_file', { path: 'src/add.sh', old: '$1 - $2', new: '$1 + $2' }]],
      [['run_tests', {}]],
      [['finish', { summary: 'add adds' }]],
    ]);
    const r = await cli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'cargo test', '--model', `scripted:${script}`, '--json']);
    expect(r.stderr).toContain(`toolchains shown read-only: ${home}/.cargo/bin (cargo), ${home}/.rustup (rustup)`);
    expect(r.code).toBe(0);
    expect(branches(repo)).toHaveLength(1);
    const journal = journalOf();
    expect(journal).toContain('test add ... FAILED');
    expect(journal).toContain('test result: ok. 1 passed; 0 failed');
    expect(journal).toContain(`RUSTUP_HOME=${home}/.rustup`);
    expect(journal).toContain(`${home}/.cargo/credentials.toml: No such file or directory`);
    expect(`${journal}${r.stdout}${r.stderr}`).not.toContain(HOME_SECRETS.cargo);
  });

  (process.getuid?.() === 0 ? it : it.skip)('fix says which toolchain the sandbox cannot see, and why, before its tests fail for want of it', async () => {
    const repo = makeRepo(join(dir, 'repo'), PYTHON_REPO);
    chmodSync(home, 0o700);
    const script = writeScript(dir, [[['finish', { summary: 'just looking', gave_up: true }]]]);
    const r = await cli(['fix', '--repo', repo, '--task', 'look', '--verify', 'python -m minitest', '--model', `scripted:${script}`, '--json']);
    expect(r.stderr).toContain(`greenfix: toolchain not shown: ${home}/.pyenv: the sandbox's uids cannot reach it: ${home} has mode 0700`);
    expect(r.stderr).not.toContain('toolchains shown read-only');
  });

  it('doctor lists what it showed, what it could not find, and is ready', async () => {
    const repo = makeRepo(join(dir, 'repo'), PYTHON_REPO);
    const r = await cli(['doctor', '--repo', repo, '--verify', 'python -m minitest', '--setup', 'no-such-tool install', '--json']);
    expect(r.stderr).toContain(`greenfix: toolchains shown read-only: ${home}/.pyenv (pyenv)`);
    expect(r.stderr).toContain('greenfix: toolchains not found on your PATH: no-such-tool');
    expect(r.json).toMatchObject({ toolchains: { visible: [{ what: 'pyenv', path: `${home}/.pyenv` }], notFound: ['no-such-tool'] } });
  });

  it('without the toolchain on PATH the same repository cannot be tested, and doctor says what is missing', async () => {
    const repo = makeRepo(join(dir, 'repo'), PYTHON_REPO);
    const r = await runCli(['doctor', '--repo', repo, '--verify', 'python -m minitest', '--json'], { HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin', GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.stderr).toContain("greenfix: toolchains shown read-only: none (the commands' programs are the system's)");
    expect(r.stderr).toContain('greenfix: toolchains not found on your PATH: python');
    expect(r.json).toMatchObject({ ready: false });
    // With the toolchain, the baseline runs again: the one without it does not stand for it.
    const script = writeScript(dir, [[['finish', { summary: 'just looking', gave_up: true }]]]);
    const fixed = await cli(['fix', '--repo', repo, '--task', 'look', '--verify', 'python -m minitest', '--model', `scripted:${script}`, '--json']);
    expect(fixed.stderr).toMatch(/greenfix: baseline on main @ [0-9a-f]+: the test command exited 1/);
    expect(fixed.stderr).not.toContain('cached: not run again');
  });
});
