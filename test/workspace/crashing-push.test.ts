import { crashingPush } from '../../src/workspace/crashing-push.js';
import type { PushBranch } from '../../src/workspace/push-branch.js';

describe('crashingPush', () => {
  it('reaches before_push before the push starts and after_push once it is done', async () => {
    const seen: string[] = [];
    const push: PushBranch = async () => (seen.push('push'), { pushed: true, previous: null });
    const wrapped = crashingPush(push, { reach: (point) => seen.push(point) });
    const options = { gitDir: '/g', cloneUrl: 'https://example.invalid/r.git', token: 't', branch: 'greenfix/x', commit: 'c'.repeat(40), allowedPrefix: 'greenfix/', protectedBranches: ['main'] };
    expect(await wrapped(options)).toEqual({ pushed: true, previous: null });
    expect(seen).toEqual(['before_push', 'push', 'after_push']);
  });

  it('reaches no after_push when the push fails', async () => {
    const seen: string[] = [];
    const wrapped = crashingPush(() => Promise.reject(new Error('refused')), { reach: (point) => seen.push(point) });
    await expect(wrapped({ gitDir: '/g', cloneUrl: 'u', token: 't', branch: 'b', commit: 'c', allowedPrefix: 'greenfix/', protectedBranches: [] })).rejects.toThrow('refused');
    expect(seen).toEqual(['before_push']);
  });
});
