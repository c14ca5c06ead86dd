import nock from 'nock';
import { crashingHost } from '../../src/github/crashing-host.js';
import { api, fixture, OWNER, REPO, setupNock, teardownNock } from './octokit-fixture.js';

beforeEach(setupNock);
afterEach(teardownNock);
afterAll(() => nock.restore());

describe('crashingHost', () => {
  it('reaches a point either side of each comment write, the request in between', async () => {
    const f = fixture();
    const log: string[] = [];
    const scope = api(log)
      .patch(`/repos/${OWNER}/${REPO}/issues/comments/9`, { body: 'edited' })
      .reply(200, { id: 9 })
      .get(`/repos/${OWNER}/${REPO}/collaborators/alice/permission`)
      .reply(200, { permission: 'write', role_name: 'write' });
    const host = crashingHost(f.host, { reach: (point) => log.push(point) });
    await expect(host.updateComment(9, 'edited')).resolves.toBe(true);
    await host.permission('alice');
    expect(scope.isDone()).toBe(true);
    // a read passes through untouched, with no crash point
    expect(log).toEqual(['before_comment', `PATCH /repos/${OWNER}/${REPO}/issues/comments/9`, 'after_comment', `GET /repos/${OWNER}/${REPO}/collaborators/alice/permission`]);
    expect([host.owner, host.repo]).toEqual([OWNER, REPO]);
  });

  it('reaches no after point when the write fails', async () => {
    const f = fixture();
    const log: string[] = [];
    api(log).post(`/repos/${OWNER}/${REPO}/check-runs`).reply(403, { message: 'Resource not accessible by integration' });
    const host = crashingHost(f.host, { reach: (point) => log.push(point) });
    await expect(host.upsertCheckRun({ name: 'greenfix/verify', headSha: 'a'.repeat(40), externalId: 'j1', status: 'completed', conclusion: 'success', output: { title: 't', summary: 's' } })).rejects.toThrow();
    expect(log[0]).toBe('before_check_run');
    expect(log).not.toContain('after_check_run');
  });
});
