import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUGGY_REPO, CLI, FIX_EDIT, writeScript } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo } from '../support/make-repo.js';

const SECRET = 'root-only-secret-20fd';

/**
 * A descriptor open in the process that started greenfix (fd 200, on a root-only file) must not be
 * open in a sandboxed command: through the built CLI, the model's `run` reads fd 200 and lists its
 * descriptors, and the test command does the same.
 */
describe('greenfix fix started with an inherited descriptor', () => {
  let dir: string;
  afterEach(() => cleanup(dir));

  it('no sandboxed command sees it', async () => {
    dir = tempDir('greenfix-fds-');
    const repo = makeRepo(join(dir, 'repo'), { ...BUGGY_REPO, 'test.sh': `cat <&200; ls /proc/self/fd | tr '\\n' ' '; echo\n${BUGGY_REPO['test.sh']}` });
    const secret = join(dir, 'secret');
    writeFileSync(secret, `${SECRET}\n`, { mode: 0o600 });
    const script = writeScript(dir, [[['run', { command: 'cat <&200; echo "fds: $(ls /proc/self/fd | tr "\\n" " ")"' }]], [FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]]);
    const fd = openSync(secret, 'r');
    const stdio: Array<'ignore' | 'pipe' | number> = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(197).fill('ignore'), fd];
    const child = spawn(process.execPath, [CLI, 'fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), GREENFIX_WORKDIR: join(dir, 'work') },
      stdio,
    });
    closeSync(fd);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.resume();
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    const journal = readFileSync(join(String(/journal: (\S+)/.exec(stderr)?.[1])), 'utf8');
    expect(journal).not.toContain(SECRET);
    expect(journal).toMatch(/Bad file descriptor/);
    // ls's own listing: the three streams and the directory it reads, nothing inherited.
    expect(journal).toMatch(/fds: 0 1 2 3 ?\\n/);
  });
});
