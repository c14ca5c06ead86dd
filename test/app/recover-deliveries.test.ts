import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { DeliveryAttempt } from '../../src/github/app-deliveries.js';
import { lostDeliveries, recoverDeliveries } from '../../src/app/recover-deliveries.js';
import type { AnsweredDeliveries } from '../../src/queue/answered-deliveries.js';
import { API, testOctokit } from '../github/octokit-fixture.js';

const EVENTS = ['issues.labeled', 'issue_comment.created', 'pull_request.closed'];
const T = Date.parse('2026-12-03T07:00:00Z');

/** An item of GET /app/hook/deliveries, shaped as GitHub's OpenAPI description says (hook-delivery-item). */
function item(id: number, guid: string, at: number, status_code: number, event = 'issues', action: string | null = 'labeled') {
  return { id, guid, delivered_at: new Date(at).toISOString().replace(/\.\d+Z$/, 'Z'), redelivery: false, duration: 0.03, status: status_code < 300 ? 'OK' : 'Invalid HTTP Response: 503', status_code, event, action, installation_id: 7, repository_id: 42, throttled_at: null };
}

const attempt = (id: number, guid: string, at: number, statusCode: number, event = 'issues', action: string | null = 'labeled'): DeliveryAttempt => ({ id, guid, deliveredAt: at, statusCode, event, action });

function answered(unknownIds: readonly string[], from: number | null): AnsweredDeliveries & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    record: async () => undefined,
    unknown: async (ids) => (asked.push([...ids]), ids.filter((id) => unknownIds.includes(id))),
    checkFrom: async () => from,
  };
}

function logs() {
  const lines: Array<{ level: string; obj: object; msg?: string }> = [];
  return { lines, info: (obj: object, msg?: string) => void lines.push({ level: 'info', obj, msg }), warn: (obj: object, msg?: string) => void lines.push({ level: 'warn', obj, msg }) };
}

afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

describe('lostDeliveries: what a power cut took', () => {
  it('is an answered (2xx) delivery of a recorded event that nothing records, named by its newest attempt', () => {
    const attempts = [
      attempt(9, 'lost', T + 9, 200),
      attempt(8, 'lost', T + 1, 202), // an earlier attempt at the same delivery
      attempt(7, 'failed', T, 503), // GitHub knows it failed: the user redelivers it
      attempt(6, 'member', T, 200, 'member', 'added'), // not an event the receiver records
      attempt(5, 'known', T, 200),
      attempt(4, 'comment', T, 200, 'issue_comment', 'created'),
      attempt(3, 'no-action', T, 200, 'pull_request', null),
    ];
    const lost = lostDeliveries(attempts, new Set(['lost', 'failed', 'member', 'comment', 'no-action']), EVENTS);
    expect(lost.map((a) => [a.guid, a.id])).toEqual([['lost', 9], ['comment', 4]]);
    expect(lostDeliveries(attempts, new Set(['no-action']), [...EVENTS, 'pull_request']).map((a) => a.guid)).toEqual(['no-action']);
  });
});

describe('recoverDeliveries: GitHub\'s log against the queue, at a receiver\'s start', () => {
  it('reads the log page by page back to where the check starts, and asks again for each lost delivery', async () => {
    const seen: string[] = [];
    const scope = nock(API)
      .get('/app/hook/deliveries')
      .query({ per_page: '100' })
      .reply(200, [item(30, 'g-new', T + 30_000, 200), item(29, 'g-known', T + 20_000, 200)], { link: `<${API}/app/hook/deliveries?per_page=100&cursor=c2>; rel="next"` })
      .get('/app/hook/deliveries')
      .query({ per_page: '100', cursor: 'c2' })
      .reply(200, [item(28, 'g-lost', T + 10_000, 200), item(27, 'g-old', T - 1, 200)], { link: `<${API}/app/hook/deliveries?per_page=100&cursor=c3>; rel="next"` })
      .post('/app/hook/deliveries/30/attempts')
      .reply(202, {})
      .post('/app/hook/deliveries/28/attempts')
      .reply(202, {});
    scope.on('request', (req: { method?: string; path?: string }) => seen.push(`${req.method} ${req.path}`));
    const store = answered(['g-new', 'g-lost', 'g-old'], T);
    const log = logs();
    expect(await recoverDeliveries({ answered: store, octokit: async () => testOctokit(), events: EVENTS, log })).toBe(2);
    expect(scope.isDone()).toBe(true); // the third page, before `since`, is never read
    expect(store.asked).toEqual([['g-new', 'g-known', 'g-lost']]);
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual(['POST /app/hook/deliveries/30/attempts', 'POST /app/hook/deliveries/28/attempts']);
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', obj: { lost: 2, redelivered: 2, deliveries: ['g-new', 'g-lost'] } })]);
  });

  it('does not read the log when nothing was answered since the queue began recording', async () => {
    const log = logs();
    let asked = false;
    expect(await recoverDeliveries({ answered: answered([], null), octokit: async () => ((asked = true), testOctokit()), events: EVENTS, log })).toBe(0);
    expect(asked).toBe(false);
    expect(log.lines).toEqual([]);
  });

  it('says so when nothing is missing, and when the log goes on past the pages it may read', async () => {
    nock(API)
      .get('/app/hook/deliveries')
      .query(true)
      .reply(200, Array.from({ length: 100 }, (_, i) => item(500 - i, `g-${i}`, T + 100_000 - i, 200)), { link: `<${API}/app/hook/deliveries?per_page=100&cursor=c2>; rel="next"` });
    const log = logs();
    expect(await recoverDeliveries({ answered: answered([], T), octokit: async () => testOctokit(), events: EVENTS, log, maxPages: 1 })).toBe(0);
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'GitHub\'s delivery log goes on past the pages read: older deliveries were not checked for loss'],
      ['info', 'GitHub\'s delivery log checked: no answered delivery is missing'],
    ]);
  });

  it('goes on past a redelivery GitHub refuses, and names the one it could not ask for', async () => {
    nock(API)
      .get('/app/hook/deliveries')
      .query(true)
      .reply(200, [item(2, 'g-a', T + 2, 200), item(1, 'g-b', T + 1, 200)])
      .post('/app/hook/deliveries/2/attempts')
      .reply(422, { message: 'Validation Failed' })
      .post('/app/hook/deliveries/1/attempts')
      .reply(202, {});
    const log = logs();
    expect(await recoverDeliveries({ answered: answered(['g-a', 'g-b'], T), octokit: async () => testOctokit(), events: EVENTS, log })).toBe(1);
    expect(log.lines[0]).toMatchObject({ level: 'warn', obj: { deliveryId: 'g-a', attempt: 2 } });
    expect(log.lines[1]).toMatchObject({ level: 'warn', obj: { lost: 2, redelivered: 1 } });
  });
});
