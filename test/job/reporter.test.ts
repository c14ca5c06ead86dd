import { newJobReport } from '../../src/github/report.js';
import { statusMarker } from '../../src/github/status-marker.js';
import { JobReporter } from '../../src/job/reporter.js';
import { InjectedHostFailure, recordingHost, type RecordingHost } from './recording-host.js';

/** A reporter on a recording host with a clock the test moves; progress at most every 1000 ms. */
function setup(finishNote?: () => Promise<string | null>) {
  const gh: RecordingHost = recordingHost();
  const clock = { ms: 1_000_000 };
  const errors: unknown[] = [];
  const reporter = new JobReporter({
    host: gh.host,
    report: newJobReport('job-1', 'issue', 12, 60),
    now: () => clock.ms,
    minIntervalMs: 1_000,
    onError: (error) => errors.push(error),
    ...(finishNote ? { finishNote } : {}),
  });
  const methods = () => gh.writes.map((w) => w.method);
  return { gh, clock, errors, reporter, methods };
}

describe('JobReporter throttling', () => {
  it('writes the first progress, skips progress inside the interval, writes again once it has passed', async () => {
    const { gh, clock, reporter, methods } = setup();
    await reporter.progress(1, 100);
    clock.ms += 999;
    await reporter.progress(2, 200);
    await reporter.progress(3, 300);
    expect(methods()).toEqual(['upsertComment']);
    clock.ms += 1;
    await reporter.progress(4, 400);
    // The first write finds or creates the comment by its marker; later ones edit it by id.
    expect(methods()).toEqual(['upsertComment', 'updateComment']);
    expect(gh.comments.size).toBe(1);
    expect([...gh.comments.values()][0]?.body).toContain('4 / 60 steps · 400 tokens');
  });

  it('a skipped progress still counts: the next write carries the latest steps and tokens', async () => {
    const { gh, clock, reporter } = setup();
    await reporter.progress(1, 100);
    await reporter.progress(7, 700);
    expect(gh.writes).toHaveLength(1);
    clock.ms += 5;
    await reporter.phase('agent', 'running');
    expect(gh.writes).toHaveLength(2);
    expect(gh.writes[1]?.body).toContain('7 / 60 steps · 700 tokens');
  });

  it('sends every phase change at once, however close together, and they restart the progress interval', async () => {
    const { clock, reporter, methods } = setup();
    await reporter.phase('workspace', 'running');
    await reporter.phase('workspace', 'done');
    await reporter.phase('agent', 'running');
    expect(methods()).toEqual(['upsertComment', 'updateComment', 'updateComment']);
    clock.ms += 500;
    await reporter.progress(1, 10);
    expect(methods()).toHaveLength(3);
    clock.ms += 500;
    await reporter.progress(2, 20);
    expect(methods()).toHaveLength(4);
  });

  it('serialises writes queued from synchronous callbacks: one comment created, never two at once', async () => {
    const { gh, reporter, methods } = setup();
    void reporter.phase('workspace', 'running');
    void reporter.phase('workspace', 'done');
    void reporter.progress(1, 10); // no write has run yet, so the interval has not started: it goes out
    void reporter.progress(2, 20); // inside the interval the first progress started
    void reporter.phase('setup', 'running');
    await reporter.flush();
    expect(methods()).toEqual(['upsertComment', 'updateComment', 'updateComment', 'updateComment']);
    expect(gh.maxInFlight()).toBe(1);
    expect(gh.comments.size).toBe(1);
  });

  it('always sends the final status, inside the interval too, marking running phases by the outcome', async () => {
    const { gh, reporter, methods } = setup();
    await reporter.phase('agent', 'running');
    await reporter.progress(3, 30);
    await reporter.finish({ status: 'not_verified', sentence: 'The tests still fail.' });
    expect(methods()).toEqual(['upsertComment', 'updateComment']);
    expect(reporter.report.phases.find((p) => p.name === 'agent')?.state).toBe('failed');
    const body = [...gh.comments.values()][0]?.body ?? '';
    expect(body.startsWith(statusMarker('job-1'))).toBe(true);
    expect(body).toContain('The tests still fail.');
    expect(body).toContain('/agent retry');
  });

  it('reports a failed progress write and goes on; the next write carries the whole state', async () => {
    const { gh, clock, errors, reporter, methods } = setup();
    await reporter.progress(1, 10);
    gh.failNext('updateComment');
    clock.ms += 1_000;
    await reporter.progress(2, 20);
    expect(errors).toEqual([new InjectedHostFailure('updateComment')]);
    await reporter.phase('agent', 'done');
    expect(methods()).toEqual(['upsertComment', 'updateComment', 'updateComment']);
    expect([...gh.comments.values()][0]?.body).toContain('2 / 60 steps · 20 tokens');
  });

  it('fails finish when the final write fails (the job is retried), without reporting it as a progress error', async () => {
    const { gh, errors, reporter } = setup();
    await reporter.phase('agent', 'running');
    gh.failNext('updateComment');
    await expect(reporter.finish({ status: 'failed', sentence: 'Stopped.' })).rejects.toBeInstanceOf(InjectedHostFailure);
    expect(errors).toEqual([]);
  });

  it('finds the comment again by its marker when the one it edited is gone', async () => {
    const { gh, clock, reporter, methods } = setup();
    await reporter.progress(1, 10);
    gh.comments.clear();
    clock.ms += 1_000;
    await reporter.progress(2, 20);
    expect(methods()).toEqual(['upsertComment', 'updateComment', 'upsertComment']);
    expect(gh.comments.size).toBe(1);
  });

  it('adds the finish note to the final sentence; a failing note is reported and left out; a cancelled job asks for none', async () => {
    const noted = setup(async () => 'The issue was closed meanwhile.');
    await noted.reporter.finish({ status: 'published', sentence: 'Opened #41.' });
    expect(noted.reporter.report.outcome?.sentence).toBe('Opened #41. The issue was closed meanwhile.');

    const broken = setup(async () => {
      throw new InjectedHostFailure('issueClosure');
    });
    await broken.reporter.finish({ status: 'published', sentence: 'Opened #41.' });
    expect(broken.reporter.report.outcome?.sentence).toBe('Opened #41.');
    expect(broken.errors).toEqual([new InjectedHostFailure('issueClosure')]);

    let asked = 0;
    const cancelled = setup(async () => {
      asked += 1;
      return 'never shown';
    });
    await cancelled.reporter.finish({ status: 'cancelled', sentence: 'Cancelled.' });
    expect(asked).toBe(0);
    expect(cancelled.reporter.report.outcome?.sentence).toBe('Cancelled.');
    expect([noted, broken, cancelled].map((r) => r.gh.writes.length)).toEqual([1, 1, 1]);
  });
});
