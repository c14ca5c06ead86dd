import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitBatch } from '../../src/workspace/git-batch.js';
import { GitError } from '../../src/workspace/git.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
const batches: GitBatch[] = [];
afterEach(() => {
  for (const batch of batches.splice(0)) batch.close();
  temp.cleanup();
});

function hashObjects(timeoutMs?: number): { dir: string; batch: GitBatch } {
  const dir = temp.make();
  execFileSync('git', ['init', '-q', dir]);
  const batch = new GitBatch(['hash-object', '-w', '--stdin-paths'], { cwd: dir, env: { GIT_DIR: join(dir, '.git') }, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  batches.push(batch);
  return { dir, batch };
}

const HELLO = 'ce013625030ba8dba906f756967f9e9ca394464a';
const WORLD = 'cc628ccd10742baea8241c5924df992b5c019f71';

describe('a git kept running between requests', () => {
  it('answers each request with its lines, in call order', async () => {
    const { dir, batch } = hashObjects();
    writeFileSync(join(dir, 'hello'), 'hello\n');
    writeFileSync(join(dir, 'world'), 'world\n');
    const [one, two] = await Promise.all([batch.ask('hello\n', 1), batch.ask('world\nhello\n', 2)]);
    expect(one).toEqual([HELLO]);
    expect(two).toEqual([WORLD, HELLO]);
    expect(await batch.ask('', 0)).toEqual([]);
  });

  it('fails a request as git() would when git exits, and starts again for the next', async () => {
    const { dir, batch } = hashObjects();
    await expect(batch.ask('missing\n', 1)).rejects.toMatchObject({ name: 'GitError', kind: 'exit', exitCode: 128, stderr: expect.stringContaining('missing') });
    writeFileSync(join(dir, 'hello'), 'hello\n');
    expect(await batch.ask('hello\n', 1)).toEqual([HELLO]);
  });

  it('kills a git that does not answer in time', async () => {
    const { dir, batch } = hashObjects(300);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const failing = batch.ask('fifo\n', 1);
    await expect(failing).rejects.toBeInstanceOf(GitError);
    await expect(failing).rejects.toMatchObject({ kind: 'timeout' });
    writeFileSync(join(dir, 'hello'), 'hello\n');
    expect(await batch.ask('hello\n', 1)).toEqual([HELLO]);
  });

  it('fails what is waiting when closed', async () => {
    const { dir, batch } = hashObjects();
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const waiting = batch.ask('fifo\n', 1);
    batch.close();
    await expect(waiting).rejects.toMatchObject({ kind: 'exit', stderr: 'closed' });
  });
});
