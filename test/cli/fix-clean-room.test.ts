import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { branches, keptJournal, runCli, writeScript, type CliRun } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/** A Node project whose test fails: `add` subtracts. `npm test` puts node_modules/.bin first on PATH. */
const NODE_REPO = {
  '.gitignore': 'node_modules/\n',
  'package.json': '{ "name": "adder", "version": "1.0.0", "scripts": { "test": "node test.js" } }\n',
  'lib.js': 'module.exports = (a, b) => a - b;\n',
  'test.js': "const add = require('./lib');\nif (add(2, 3) !== 5) { console.error('add(2, 3) gave ' + add(2, 3)); process.exit(1); }\nconsole.log('ok: add works');\n",
};
const SHIM = 'mkdir -p node_modules/.bin && printf "#!/bin/sh\\necho ok\\n" > node_modules/.bin/node && chmod +x node_modules/.bin/node';

/**
 * The clean-room gate through the built CLI (real git, real bwrap, npm, a scripted model): a run
 * that passes only through a file outside the committed tree gets no commit; a real fix does.
 */
describe('greenfix fix: the clean-room gate', () => {
  let dir: string;
  let repo: string;
  const fix = (turns: Array<Array<[string, unknown]>>): Promise<CliRun> =>
    runCli(
      ['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'npm test', '--setup', 'mkdir -p node_modules/left-by-setup', '--model', `scripted:${writeScript(dir, turns)}`, '--json'],
      { GREENFIX_WORKDIR: join(dir, 'work') },
    );

  beforeEach(() => {
    dir = tempDir('greenfix-clean-room-');
    repo = makeRepo(join(dir, 'repo'), NODE_REPO);
  });
  afterEach(() => cleanup(dir));

  it('an ignored node_modules/.bin/node shim makes npm test pass in the worktree: no commit, exit 1', async () => {
    const r = await fix([
      [['run', { command: SHIM }]],
      [['edit_file', { path: 'lib.js', old: 'a - b;', new: 'a - b; // fixed' }]],
      [['run_tests', {}]],
      [['finish', { summary: 'fixed add' }]],
      [['finish', { summary: 'could not', gave_up: true }]],
    ]);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ commit: null, verifiedTree: null });
    expect(branches(repo)).toEqual([]);
    // What the model read: the worktree passed (the shim), the clean room did not, and why.
    const journal = keptJournal(r);
    expect(journal).toMatch(/tests passed in your worktree, but NOT on the tree that would be committed/);
    expect(journal).toMatch(/node_modules\/.bin\/node \(not made by setup\)/);
    expect(journal).toMatch(/add\(2, 3\) gave -1/);
  });

  it('control: the real fix verifies in the clean room and is committed', async () => {
    const r = await fix([
      [['edit_file', { path: 'lib.js', old: 'a - b;', new: 'a + b;' }]],
      [['run_tests', {}]],
      [['finish', { summary: 'add adds' }]],
    ]);
    expect(r.code).toBe(0);
    const branch = String(r.json?.branch);
    expect(git(repo, 'rev-parse', `${branch}^{tree}`)).toBe(r.json?.verifiedTree);
    // The room was staged while the model worked (runFix's prepareCleanRooms), and brought to the fix's tree.
    expect(r.json?.cleanRoom).toMatchObject({ files: 0, treeStaged: true });
    expect(r.stderr).toMatch(/in a clean room of the tree alone/);
    // Nothing of the gate is left: the room, the kept setup state and the worktree are gone; the journal stays.
    const runDir = dirname(String(/journal: (\S+)/.exec(r.stderr)?.[1]));
    expect(readdirSync(runDir).sort()).toEqual(['journal.jsonl', 'state.json']);
  });
});

/** The runner exits 1 and prints no report; `adds` failed on the base (a JUnit file the base run wrote). */
const JUNIT_REPO = {
  '.gitignore': 'junit.xml\n',
  'lib.sh': 'add() { echo $(( $1 - $2 )); }\n',
  'test.sh': `#!/bin/bash
. ./lib.sh
ok=0; [ "$(add 2 3)" = 5 ] && ok=1
if [ -n "$WRITE_REPORT" ] || [ ! -e junit.xml ]; then
  if [ $ok = 1 ]; then f=''; else f='<failure message="add 2 3"/>'; fi
  printf '<testsuite name="math" tests="1" failures="%s"><testcase classname="math" name="adds">%s</testcase></testsuite>' $((1 - ok)) "$f" > junit.xml
fi
[ $ok = 1 ]
`,
};
const PLANT = `printf '<testsuite name="math" tests="1" failures="0"><testcase classname="math" name="adds"/></testsuite>' > junit.xml`;

describe('greenfix fix: a planted report', () => {
  let dir: string;
  let repo: string;
  beforeEach(() => {
    dir = tempDir('greenfix-planted-');
    repo = makeRepo(join(dir, 'repo'), JUNIT_REPO);
  });
  afterEach(() => cleanup(dir));

  it('a JUnit file the model wrote, saying the failing test passes, does not verify under no_new_failures: no commit', async () => {
    const script = writeScript(dir, [[['run', { command: PLANT }]], [['run_tests', {}]], [['finish', { summary: 'adds passes' }]], [['finish', { summary: 'no', gave_up: true }]]]);
    const r = await runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--verify-mode', 'no_new_failures', '--model', `scripted:${script}`, '--json'], { GREENFIX_WORKDIR: join(dir, 'work') });
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ commit: null });
    expect(branches(repo)).toEqual([]);
    expect(r.stderr).toMatch(/baseline on main @ \w+: 1 tests, 1 failing: math > adds/);
    const journal = keptJournal(r);
    expect(journal).toMatch(/report files that were there before the run started do not count: junit\.xml/);
  });
});
