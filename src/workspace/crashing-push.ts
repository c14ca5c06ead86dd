import type { CrashPoints } from '../util/crash-points.js';
import type { pushBranch } from './push-branch.js';

export type PushCrashPoint = 'before_push' | 'after_push';
export type PushBranch = typeof pushBranch;

/** A push that reaches `before_push` and `after_push` around the real one. */
export function crashingPush(push: PushBranch, crash: CrashPoints<PushCrashPoint>): PushBranch {
  return async (options) => {
    crash.reach('before_push');
    const pushed = await push(options);
    crash.reach('after_push');
    return pushed;
  };
}
