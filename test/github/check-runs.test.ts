import nock from 'nock';
import { api, fixture, OWNER, REPO, setupNock, teardownNock } from './octokit-fixture.js';
import type { CheckRunDraft } from '../../src/github/types.js';

const SHA = 'c'.repeat(40);
const LIST = `/repos/${OWNER}/${REPO}/commits/${SHA}/check-runs`;
const CREATE = `/repos/${OWNER}/${REPO}/check-runs`;
const draft: CheckRunDraft = {
  name: 'greenfix/verify',
  headSha: SHA,
  externalId: 'job-1',
  status: 'completed',
  conclusion: 'success',
  output: { title: 'Verified', summary: 'ok' },
  detailsUrl: 'https://example.test/jobs/job-1',
};
const run = (id: number, externalId: string) => ({ id, name: 'greenfix/verify', external_id: externalId, html_url: `https://github.com/r/${id}` });

beforeEach(setupNock);
afterEach(teardownNock);
// nock patches node:http for the whole worker; later files in it must get it back.
afterAll(() => nock.restore());

describe('upsertCheckRun', () => {
  it('updates the run whose external_id is the job, not another job\'s run of the same name', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(LIST).query({ check_name: 'greenfix/verify', filter: 'all', per_page: '100' })
      .reply(200, { total_count: 2, check_runs: [run(1, 'job-0'), run(2, 'job-1')] })
      .patch(`${CREATE}/2`, (b: Record<string, unknown>) => b.status === 'completed' && b.conclusion === 'success' && b.details_url === draft.detailsUrl)
      .reply(200, run(2, 'job-1'));
    await expect(f.host.upsertCheckRun(draft)).resolves.toEqual({ id: 2, url: 'https://github.com/r/2' });
    expect(scope.isDone()).toBe(true);
  });

  it('creates it with the external id when absent; no conclusion while in progress', async () => {
    const f = fixture();
    const inProgress: CheckRunDraft = { ...draft, status: 'in_progress', conclusion: 'success' };
    const scope = api(f.seen)
      .get(LIST).query(true).reply(200, { total_count: 1, check_runs: [run(1, 'job-0')] })
      .post(CREATE, (b: Record<string, unknown>) => b.external_id === 'job-1' && b.head_sha === SHA && b.status === 'in_progress' && !('conclusion' in b))
      .reply(201, run(3, 'job-1'));
    await expect(f.host.upsertCheckRun(inProgress)).resolves.toEqual({ id: 3, url: 'https://github.com/r/3' });
    expect(scope.isDone()).toBe(true);
  });

  it('500 on create, made anyway: re-lists, then updates the one found', async () => {
    const f = fixture();
    const scope = api(f.seen)
      .get(LIST).query(true).reply(200, { total_count: 0, check_runs: [] })
      .post(CREATE).reply(500, {})
      .get(LIST).query(true).reply(200, { total_count: 1, check_runs: [run(4, 'job-1')] })
      .patch(`${CREATE}/4`).reply(200, run(4, 'job-1'));
    await expect(f.host.upsertCheckRun(draft)).resolves.toEqual({ id: 4, url: 'https://github.com/r/4' });
    expect(scope.isDone()).toBe(true);
    expect(f.seen.filter((s) => s.startsWith('POST'))).toHaveLength(1);
  });

  it('clips an oversized output to GitHub\'s limits before sending', async () => {
    const f = fixture();
    let sent: { output: { title: string; summary: string; text: string } } | undefined;
    const huge: CheckRunDraft = { ...draft, output: { title: 't'.repeat(1000), summary: 's'.repeat(200_000), text: 'x'.repeat(200_000) } };
    const scope = api(f.seen)
      .get(LIST).query(true).reply(200, { total_count: 0, check_runs: [] })
      .post(CREATE, (b: typeof sent) => ((sent = b), true)).reply(201, run(5, 'job-1'));
    await f.host.upsertCheckRun(huge);
    expect(scope.isDone()).toBe(true);
    expect(sent!.output.title.length).toBeLessThanOrEqual(255);
    expect(sent!.output.summary.length).toBeLessThan(65_535);
    expect(sent!.output.text.length).toBeLessThan(65_535);
  });
});
