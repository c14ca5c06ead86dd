import { crashingPublisher, crashingRunState } from '../../src/fix/crashing-fix.js';
import type { Publisher } from '../../src/fix/publisher.js';
import type { RunState, RunStateStore } from '../../src/fix/run-state.js';

const published = { branch: 'greenfix/x', commit: 'c'.repeat(40), tree: 't'.repeat(40) };
const state: RunState = { task: 't', baseCommit: 'b'.repeat(40), createdAt: 0, commands: { verify: 'npm test', setup: null } };

describe('the fix crash points', () => {
  it('before_publish comes before the publisher does anything', async () => {
    const seen: string[] = [];
    const publisher: Publisher = { publish: async () => (seen.push('publish'), published) };
    const wrapped = crashingPublisher(publisher, { reach: (p) => seen.push(p) });
    const verified = { tree: published.tree, command: 'npm test', exitCode: 0 as const, durationMs: 1, outputTail: '' };
    expect(await wrapped.publish({ verified, baseCommit: state.baseCommit, task: 't', summary: 's', date: new Date(0) })).toBe(published);
    expect(seen).toEqual(['before_publish', 'publish']);
  });

  it('after_publish comes once the state records the publish, and only the first time', () => {
    const seen: string[] = [];
    let saved: RunState | undefined;
    const store: RunStateStore = { get: () => saved, set: (s) => (seen.push(s.published ? 'saved published' : 'saved'), (saved = s)) };
    const wrapped = crashingRunState(store, { reach: (p) => seen.push(p) });
    wrapped.set(state);
    wrapped.set({ ...state, setup: { exitCode: 0, timedOut: false, durationMs: 1, outputTail: '' } });
    wrapped.set({ ...state, published });
    wrapped.set({ ...state, published });
    expect(seen).toEqual(['saved', 'saved', 'saved published', 'after_publish', 'saved published']);
    expect(wrapped.get()).toEqual({ ...state, published });
  });
});
