import { crashWrappers, noEffectWrappers } from '../../src/cli/crash-wrappers.js';
import type { RunState, RunStateStore } from '../../src/fix/run-state.js';
import type { PushBranch } from '../../src/workspace/push-branch.js';

describe('crashWrappers', () => {
  it('wraps nothing without GREENFIX_CRASH_AT, or with a malformed one', () => {
    expect(crashWrappers({})).toBe(noEffectWrappers);
    expect(crashWrappers({ GREENFIX_CRASH_AT: 'after_push:0' })).toBe(noEffectWrappers);
    const push: PushBranch = async () => ({ pushed: true, previous: null });
    expect(noEffectWrappers.push(push)).toBe(push);
  });

  it('counts the n-th reach across every wrapper of the process', async () => {
    let kills = 0;
    const wrap = crashWrappers({ GREENFIX_CRASH_AT: 'after_push:2' }, () => kills++);
    const push = wrap.push(async () => ({ pushed: true, previous: null }));
    const options = { gitDir: '/g', cloneUrl: 'u', token: 't', branch: 'greenfix/x', commit: 'c', allowedPrefix: 'greenfix/', protectedBranches: [] };
    await push(options);
    expect(kills).toBe(0);
    await wrap.push(async () => ({ pushed: false, previous: 'c' }))(options); // another job's push, same process
    expect(kills).toBe(1);
    let saved: RunState | undefined;
    const store: RunStateStore = { get: () => saved, set: (s) => void (saved = s) };
    wrap.state(store).set({ task: 't', baseCommit: 'b', createdAt: 0, commands: { verify: null, setup: null }, published: { branch: 'b', commit: 'c', tree: 't' } });
    expect(kills).toBe(1); // a different point
  });
});
