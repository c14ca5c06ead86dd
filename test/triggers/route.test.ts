import { dedupeKeyFor } from '../../src/triggers/dedupe.js';
import { triggerFor } from '../../src/triggers/route.js';
import type { JobRequest } from '../../src/triggers/types.js';
import { CTX } from './context.js';
import { examplePayload } from './payloads.js';
import { webhookEvent } from '../../src/triggers/webhook-event.js';

describe('triggerFor', () => {
  it('ignores events it does not handle, and never throws on garbage', () => {
    expect(triggerFor(webhookEvent('push', examplePayload('push', '')), CTX)).toEqual({ type: 'ignored', reason: 'the push event is not a trigger' });
    expect(triggerFor(webhookEvent('toString', {}), CTX).type).toBe('ignored');
    for (const garbage of [null, undefined, 42, 'x', [], {}, { action: 7 }]) {
      expect(triggerFor(webhookEvent('issues', garbage), CTX)).toEqual({ type: 'ignored', reason: 'malformed issues payload: action: missing' });
    }
    expect(triggerFor(webhookEvent('issue_comment', { action: 'created' }), CTX).type).toBe('ignored');
  });
});

describe('dedupeKeyFor', () => {
  const repo = { id: 5, owner: 'o', name: 'n', cloneUrl: 'https://example.test/o/n.git', defaultBranch: 'main' };
  const base: JobRequest = { kind: 'issue', installationId: 1, repo, number: 3, target: 'issue', title: 't', body: '', sender: 's' };

  it('keys a CI fix on repo, PR, head SHA and the sorted check names', () => {
    const ci = { headSha: 'abc', headRef: 'b', checks: ['test', 'lint'], checkRunIds: [1, 2] };
    const key = dedupeKeyFor({ ...base, kind: 'ci_fix', target: 'pull_request', ci });
    expect(key).toBe('ci:5:3:abc:lint,test');
    expect(dedupeKeyFor({ ...base, kind: 'ci_fix', ci: { ...ci, checks: ['lint', 'test'], checkRunIds: [9] } })).toBe(key);
  });

  it('has no key for issue and retry jobs', () => {
    expect(dedupeKeyFor(base)).toBeUndefined();
    expect(dedupeKeyFor({ ...base, kind: 'retry' })).toBeUndefined();
  });

  it('a trigger’s CI job and the key agree', () => {
    const payload = examplePayload('check_run', 'completed', { check_run: { app: { id: 1, slug: 'ci' } } });
    const result = triggerFor(webhookEvent('check_run', payload), CTX);
    expect(result.type === 'job' && dedupeKeyFor(result.request)).toBe(
      'ci:186853002:2:ec26c3e57ca3a959ca5aad62de7213c562f8c821:Octocoders-linter',
    );
  });
});
