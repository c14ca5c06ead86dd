import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeRetentionFs } from '../../src/worker/dir-usage.js';
import { jobsDir } from '../../src/job/files.js';
import { sweepJobDirs, type RetentionDeps } from '../../src/worker/job-retention.js';
import { sqliteFixture, type SqliteFixture } from '../queue/sqlite-fixture.js';
import { DAY, NOW, jobIn, touchTree, writeJobDir } from './job-retention-fixture.js';

const BYTES = 10 * 17 + 18 + 1000; // journal, run.json, logs/setup.log

describe('sweepJobDirs', () => {
  let f: SqliteFixture;
  let workdir: string;
  let outside: string;
  beforeEach(() => {
    f = sqliteFixture();
    workdir = mkdtempSync(join(tmpdir(), 'gf-retention-'));
    outside = mkdtempSync(join(tmpdir(), 'gf-retention-outside-'));
  });
  afterEach(async () => {
    await f.cleanup();
    rmSync(workdir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const sweep = (extra: Partial<RetentionDeps> = {}) =>
    sweepJobDirs({ workdir, jobsDir, jobState: async (id) => (await f.queue.get(id))?.state ?? null, now: () => NOW, retentionMs: 7 * DAY, ...extra });

  it('removes finished jobs older than the retention and keeps the younger ones, reporting bytes', async () => {
    const old = [await jobIn(f.queue, 'succeeded'), await jobIn(f.queue, 'failed'), await jobIn(f.queue, 'cancelled')];
    const young = [await jobIn(f.queue, 'succeeded'), await jobIn(f.queue, 'failed')];
    for (const id of old) writeJobDir(workdir, id, 8 * DAY);
    for (const id of young) writeJobDir(workdir, id, 6 * DAY);

    const result = await sweep();

    expect(result.removed.map((r) => r.id).sort()).toEqual([...old].sort());
    expect(result.removed.every((r) => r.bytes >= BYTES)).toBe(true);
    expect(result.bytes).toBe(result.removed.reduce((sum, r) => sum + r.bytes, 0));
    expect(result).toMatchObject({ kept: 2, skipped: [], failed: [] });
    for (const id of old) expect(existsSync(join(workdir, 'jobs', id))).toBe(false);
    for (const id of young) expect(existsSync(join(workdir, 'jobs', id, 'journal.jsonl'))).toBe(true);
  });

  it('dates a directory by its newest file', async () => {
    const id = await jobIn(f.queue, 'succeeded');
    const dir = writeJobDir(workdir, id, 30 * DAY);
    touchTree(join(dir, 'logs', 'setup.log'), NOW - DAY);

    expect(await sweep()).toMatchObject({ removed: [], kept: 1 });
    expect(existsSync(join(dir, 'journal.jsonl'))).toBe(true);
  });

  it('never touches a queued or running job, however old, even with a retention of 0', async () => {
    const active = [await jobIn(f.queue, 'running'), await jobIn(f.queue, 'queued')];
    for (const id of active) writeJobDir(workdir, id, 365 * DAY);

    expect(await sweep({ retentionMs: 0 })).toMatchObject({ removed: [], kept: 2, failed: [] });
    for (const id of active) expect(existsSync(join(workdir, 'jobs', id, 'journal.jsonl'))).toBe(true);
  });

  it('with a retention of 0, removes a job as soon as it ended', async () => {
    const id = await jobIn(f.queue, 'succeeded');
    writeJobDir(workdir, id, 0);

    expect((await sweep({ retentionMs: 0 })).removed).toEqual([{ id, bytes: expect.any(Number) }]);
  });

  it('removes a directory the queue does not know only once it is older than the retention', async () => {
    writeJobDir(workdir, 'gone-old', 8 * DAY);
    writeJobDir(workdir, 'gone-young', DAY);

    const result = await sweep();

    expect(result.removed.map((r) => r.id)).toEqual(['gone-old']);
    expect(result.kept).toBe(1);
    expect(existsSync(join(workdir, 'jobs', 'gone-young'))).toBe(true);
  });

  it('leaves symlinks and files in jobs/ alone and never follows them', async () => {
    const id = await jobIn(f.queue, 'succeeded');
    writeFileSync(join(outside, 'precious'), 'keep me');
    touchTree(outside, NOW - 30 * DAY);
    mkdirSync(join(workdir, 'jobs'));
    symlinkSync(outside, join(workdir, 'jobs', id));
    writeFileSync(join(workdir, 'jobs', 'stray.txt'), 'x');
    touchTree(join(workdir, 'jobs', 'stray.txt'), NOW - 30 * DAY);

    const result = await sweep({ retentionMs: 0 });

    expect(result).toMatchObject({ removed: [], kept: 0, failed: [] });
    expect(result.skipped.sort()).toEqual([id, 'stray.txt'].sort());
    expect(lstatSync(join(workdir, 'jobs', id)).isSymbolicLink()).toBe(true);
    expect(existsSync(join(outside, 'precious'))).toBe(true);
    expect(existsSync(join(workdir, 'jobs', 'stray.txt'))).toBe(true);
  });

  it('removes a symlink inside a finished job, not what it points to, and does not date the job by it', async () => {
    const id = await jobIn(f.queue, 'failed');
    writeFileSync(join(outside, 'precious'), 'keep me'); // young: now
    const dir = writeJobDir(workdir, id, 8 * DAY);
    symlinkSync(outside, join(dir, 'escape'));
    touchTree(dir, NOW - 8 * DAY);

    expect((await sweep()).removed.map((r) => r.id)).toEqual([id]);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(outside, 'precious'))).toBe(true);
  });

  it('does nothing when jobs/ is a symlink, and nothing (no error) when it does not exist', async () => {
    expect(await sweep()).toEqual({ removed: [], bytes: 0, kept: 0, skipped: [], failed: [] });
    writeJobDir(outside, 'gone-old', 30 * DAY);
    symlinkSync(join(outside, 'jobs'), join(workdir, 'jobs'));

    const result = await sweep();

    expect(result).toMatchObject({ removed: [], skipped: [join(workdir, 'jobs')] });
    expect(existsSync(join(outside, 'jobs', 'gone-old', 'journal.jsonl'))).toBe(true);
  });

  it('reports a directory it cannot ask about or remove, and still sweeps the others', async () => {
    const ids = [await jobIn(f.queue, 'succeeded'), await jobIn(f.queue, 'succeeded')];
    for (const id of ids) writeJobDir(workdir, id, 8 * DAY);
    writeJobDir(workdir, 'unknown-old', 8 * DAY);
    const queueDown = 'unknown-old';
    const result = await sweep({
      jobState: async (id) => {
        if (id === queueDown) throw new Error('queue unreachable');
        return (await f.queue.get(id))?.state ?? null;
      },
      fs: { ...nodeRetentionFs, removeTree: async (path) => (path.endsWith(ids[0]!) ? Promise.reject(new Error('EACCES')) : nodeRetentionFs.removeTree(path)) },
    });

    expect(result.removed.map((r) => r.id)).toEqual([ids[1]]);
    expect(result.failed.map((x) => x.id).sort()).toEqual([ids[0], queueDown].sort());
    expect(result.failed.find((x) => x.id === queueDown)?.error).toContain('queue unreachable');
    expect(existsSync(join(workdir, 'jobs', ids[0]!))).toBe(true);
    expect(existsSync(join(workdir, 'jobs', queueDown))).toBe(true);
  });
});
