import type { CrashPoints } from '../util/crash-points.js';
import type { PushBranch } from './push-branch.js';

export type PushCrashPoint = 'before_push' | 'after_push';

/** A push that reaches `before_push` and `after_push` around the real one. */
export function crashingPush(push: PushBranch, crash: CrashPoints<PushCrashPoint>): PushBranch {
  return async (options) => {
    crash.reach('before_push');
    const pushed = await push(options);
    crash.reach('after_push');
    return pushed;
  };
}
