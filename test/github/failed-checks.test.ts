import nock from 'nock';
import { api, fixture, OWNER, REPO, setupNock, teardownNock } from './octokit-fixture.js';

const SHA = 'd'.repeat(40);
const LIST = `/repos/${OWNER}/${REPO}/commits/${SHA}/check-runs`;
const annotationsOf = (id: number) => `/repos/${OWNER}/${REPO}/check-runs/${id}/annotations`;
const LOG = (id: number) => `/repos/${OWNER}/${REPO}/actions/jobs/${id}/logs`;

const ACTIONS_LOG = [
  '2024-01-01T00:00:00.0000000Z ##[group]Run npm ci',
  '2024-01-01T00:00:01.0000000Z added 200 packages',
  '2024-01-01T00:00:02.0000000Z ##[endgroup]',
  '2024-01-01T00:00:03.0000000Z ##[group]Run npm test',
  '2024-01-01T00:00:04.0000000Z > jest',
  '2024-01-01T00:00:05.0000000Z \u001b[31mFAIL\u001b[39m test/sum.test.js',
  '2024-01-01T00:00:05.1000000Z   ● sum › adds',
  '2024-01-01T00:00:05.2000000Z     Expected: 3',
  '2024-01-01T00:00:05.3000000Z     Received: 4',
  '2024-01-01T00:00:06.0000000Z ##[error]Process completed with exit code 1.',
  '2024-01-01T00:00:07.0000000Z Post job cleanup.',
].join('\n');

function checkRun(id: number, name: string, conclusion: string, slug: string) {
  return {
    id,
    name,
    conclusion,
    status: 'completed',
    app: { slug },
    output: { title: `${name} failed`, summary: `summary of ${name}`, text: null, annotations_count: 1 },
  };
}

beforeEach(setupNock);
afterEach(teardownNock);
// nock patches node:http for the whole worker; later files in it must get it back.
afterAll(() => nock.restore());

describe('failedChecks', () => {
  it('collects output, annotations and the failing part of an Actions job log (log behind a 302)', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(LIST).query({ filter: 'latest', per_page: '100' })
      .reply(200, {
        total_count: 4,
        check_runs: [
          checkRun(111, 'test', 'failure', 'github-actions'),
          checkRun(112, 'lint', 'success', 'github-actions'),
          checkRun(113, 'ci/circle', 'timed_out', 'circleci-checks'),
          checkRun(114, 'build', 'failure', 'github-actions'),
        ],
      })
      .get(annotationsOf(111)).query(true)
      .reply(200, [{ path: 'test/sum.test.js', start_line: 4, end_line: 4, annotation_level: 'failure', title: 'sum › adds', message: 'Expected 3, received 4' }])
      .get(LOG(111)).reply(302, '', { location: 'https://logs.example.test/job/111?sig=abc' })
      .get(annotationsOf(113)).query(true).reply(200, [])
      .get(annotationsOf(114)).query(true).reply(200, [])
      .get(LOG(114)).reply(410, { message: 'Gone' });
    const logs = nock('https://logs.example.test').get('/job/111').query(true).reply(200, ACTIONS_LOG, { 'content-type': 'text/plain' });

    const checks = await f.host.failedChecks(SHA);
    expect(scope.isDone()).toBe(true);
    expect(logs.isDone()).toBe(true);
    expect(checks.map((c) => [c.name, c.checkRunId])).toEqual([['test', 111], ['ci/circle', 113], ['build', 114]]);

    const [test, circle, build] = checks;
    expect(test!.output).toContain('summary of test');
    expect(test!.output).toContain('- failure test/sum.test.js:4 sum › adds: Expected 3, received 4');
    expect(test!.log).toContain('FAIL test/sum.test.js');
    expect(test!.log).toContain('Received: 4');
    expect(test!.log).toContain('##[error]Process completed with exit code 1.');
    expect(test!.log).not.toContain('added 200 packages');
    expect(test!.log).not.toMatch(/2024-01-01T|\u001b/);
    expect(circle!.log).toBeNull(); // not GitHub Actions: no job log to fetch
    expect(build!.log).toBeNull();
    expect(build!.output).toContain('(job log unavailable: not_found 410)');
  });

  it('filters by the names asked for, and reads the log when GitHub answers it directly', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(LIST).query(true)
      .reply(200, { total_count: 2, check_runs: [checkRun(1, 'test', 'failure', 'github-actions'), checkRun(2, 'e2e', 'failure', 'github-actions')] })
      .get(annotationsOf(2)).query(true).reply(200, [])
      .get(LOG(2)).reply(200, 'Error: boom\n', { 'content-type': 'text/plain' });
    const checks = await f.host.failedChecks(SHA, ['e2e']);
    expect(checks).toEqual([{ name: 'e2e', checkRunId: 2, output: 'e2e failed\n\nsummary of e2e', log: 'Error: boom' }]);
    expect(scope.isDone()).toBe(true);
  });
});

describe('failingCheckNames', () => {
  it('names failing and timed-out checks on a ref, sorted, once each', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(`/repos/${OWNER}/${REPO}/commits/main/check-runs`).query(true)
      .reply(200, {
        total_count: 4,
        check_runs: [
          checkRun(1, 'test', 'failure', 'github-actions'),
          checkRun(2, 'build', 'timed_out', 'github-actions'),
          checkRun(3, 'lint', 'success', 'github-actions'),
          checkRun(4, 'test', 'failure', 'github-actions'),
        ],
      });
    await expect(f.host.failingCheckNames('main')).resolves.toEqual(['build', 'test']);
    expect(scope.isDone()).toBe(true);
  });
});
