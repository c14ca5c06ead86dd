import { git, GitError } from '../../src/workspace/git.js';
import { displayPath, unquotePathBytes } from '../../src/workspace/git-path.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());

describe('git runner', () => {
  it('returns stdout and passes stdin', async () => {
    const dir = temp.make();
    await git(['init', '-q', dir], { cwd: dir });
    const oid = await git(['hash-object', '-w', '--stdin'], { cwd: dir, input: 'hello\n' });
    expect(oid.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('throws a typed GitError with args, exit code and stderr', async () => {
    const dir = temp.make();
    const failing = git(['rev-parse', '--verify', 'nope'], { cwd: dir });
    await expect(failing).rejects.toBeInstanceOf(GitError);
    await expect(failing).rejects.toMatchObject({ kind: 'exit', exitCode: 128, args: ['rev-parse', '--verify', 'nope'] });
    await expect(failing).rejects.toHaveProperty('stderr', expect.stringContaining('not a git repository'));
  });

  it('gives the child only an allow-listed environment', async () => {
    const dir = temp.make();
    await git(['init', '-q', dir], { cwd: dir });
    process.env.GREENFIX_TEST_SECRET = 'leak';
    try {
      const seen = await git(['-c', 'alias.env=!env', 'env'], { cwd: dir, env: { GIT_AUTHOR_NAME: 'x' } });
      expect(seen).not.toContain('GREENFIX_TEST_SECRET');
      expect(seen).toContain('GIT_AUTHOR_NAME=x');
      expect(seen).toContain('GIT_CONFIG_NOSYSTEM=1');
    } finally {
      delete process.env.GREENFIX_TEST_SECRET;
    }
    await expect(git(['status'], { cwd: dir, env: { SECRET: 'x' } })).rejects.toBeInstanceOf(TypeError);
  });

  it('reports a timeout as kind "timeout"', async () => {
    const dir = temp.make();
    await git(['init', '-q', dir], { cwd: dir });
    const slow = git(['-c', 'alias.slow=!sleep 5', 'slow'], { cwd: dir, timeoutMs: 200 });
    await expect(slow).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('refuses to return a partial stdout', async () => {
    const dir = temp.make();
    await git(['init', '-q', dir], { cwd: dir });
    const big = git(['-c', 'alias.big=!head -c 5000 /dev/zero', 'big'], { cwd: dir, maxOutputBytes: 1000 });
    await expect(big).rejects.toMatchObject({ kind: 'output-overflow' });
  });
});

describe('git quoted paths', () => {
  it('round-trips C-quoted names to their bytes', () => {
    expect(unquotePathBytes('plain/path.txt').toString()).toBe('plain/path.txt');
    expect(unquotePathBytes('"caf\\303\\251 \\"q\\"\\t\\\\.txt"').toString()).toBe('café "q"\t\\.txt');
    expect(unquotePathBytes('"r\\351sum\\351"')).toEqual(Buffer.from([0x72, 0xe9, 0x73, 0x75, 0x6d, 0xe9]));
    expect(displayPath('"r\\351"')).toBe('r\ufffd');
  });
});
