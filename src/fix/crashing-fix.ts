import type { CrashPoints } from '../util/crash-points.js';
import type { Publisher } from './publisher.js';
import type { RunStateStore } from './run-state.js';

export type FixCrashPoint = 'before_publish' | 'after_publish';

/** A publisher that reaches `before_publish` before it starts. */
export function crashingPublisher(publisher: Publisher, crash: CrashPoints<FixCrashPoint>): Publisher {
  return {
    publish(input) {
      crash.reach('before_publish');
      return publisher.publish(input);
    },
  };
}

/** A state store that reaches `after_publish` once it has recorded a publish: a resume skips it. */
export function crashingRunState(store: RunStateStore, crash: CrashPoints<FixCrashPoint>): RunStateStore {
  return {
    get: () => store.get(),
    set(state) {
      const before = store.get();
      store.set(state);
      if (state.published && !before?.published) crash.reach('after_publish');
    },
  };
}
