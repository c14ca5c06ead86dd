import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUGGY_REPO, FIX_EDIT, branches, runCli, writeScript } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo } from '../support/make-repo.js';

const isRoot = process.getuid?.() === 0;

/** The per-job limits end to end: the built CLI, real bwrap and cgroups, a scripted model. */
describe('greenfix fix: resources per job', () => {
  let dir: string;
  let repo: string;
  beforeEach(() => {
    dir = tempDir('greenfix-res-');
    repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
  });
  afterEach(() => cleanup(dir));

  const journalOf = (work: string) => {
    const runs = join(work, 'runs');
    const [run] = readdirSync(runs);
    return readFileSync(join(runs, run!, 'journal.jsonl'), 'utf8');
  };

  (isRoot ? it : it.skip)('the model reads "killed: memory limit 512 MB" and the run goes on to a verified fix', async () => {
    const hog: [string, unknown] = ['run', { command: `node -e 'Buffer.alloc(3 * 1024 ** 3, 1)'` }];
    const script = writeScript(dir, [[hog], [FIX_EDIT], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]]);
    const work = join(dir, 'work');
    const r = await runCli(['fix', '--repo', repo, '--task', 'fix add', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'], {
      GREENFIX_WORKDIR: work,
      GREENFIX_SANDBOX_MEMORY_MB: '512',
    });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified' });
    expect(journalOf(work)).toContain('killed: memory limit 512 MB');
  });

  it('a command writing past GREENFIX_SANDBOX_DISK_MB is killed and the run stops with the disk reason, committing nothing', async () => {
    const fill: [string, unknown] = ['run', { command: 'head -c 30000000 /dev/urandom > big; sleep 20' }];
    const script = writeScript(dir, [[FIX_EDIT], [fill], [['run_tests', {}]], [['finish', { summary: 'add adds' }]]]);
    const work = join(dir, 'work');
    const r = await runCli(['fix', '--repo', repo, '--task', 'fix add', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'], {
      GREENFIX_WORKDIR: work,
      GREENFIX_SANDBOX_DISK_MB: '10',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stopped: disk limit reached: the worktree grew past 10 MB/);
    // Killed by the watchdog, not ended by its 20 s sleep: the model's last observation says so.
    expect(journalOf(work)).toContain('killed: disk limit 10 MB');
    expect(branches(repo)).toEqual([]);
  });
});
