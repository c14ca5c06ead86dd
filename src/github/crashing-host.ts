import type { CrashPoints } from '../util/crash-points.js';
import type { GitHost } from './types.js';

export type HostCrashPoint = 'before_comment' | 'after_comment' | 'before_pull_request' | 'after_pull_request' | 'before_check_run' | 'after_check_run';

/**
 * A host that reaches a crash point either side of each write a job makes on GitHub: comments
 * (created or edited; review-thread replies too), pull requests, check runs. Everything else goes to `host` unchanged.
 */
export function crashingHost(host: GitHost, crash: CrashPoints<HostCrashPoint>): GitHost {
  const around =
    <A extends unknown[], R>(before: HostCrashPoint, after: HostCrashPoint, write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      crash.reach(before);
      const result = await write(...args);
      crash.reach(after);
      return result;
    };
  return Object.assign(Object.create(host) as GitHost, {
    upsertComment: around('before_comment', 'after_comment', host.upsertComment.bind(host)),
    updateComment: around('before_comment', 'after_comment', host.updateComment.bind(host)),
    upsertPullRequest: around('before_pull_request', 'after_pull_request', host.upsertPullRequest.bind(host)),
    upsertCheckRun: around('before_check_run', 'after_check_run', host.upsertCheckRun.bind(host)),
    replyOnce: around('before_comment', 'after_comment', host.replyOnce.bind(host)),
  });
}
