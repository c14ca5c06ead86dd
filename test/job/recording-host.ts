import type { CheckRunDraft, GitHost } from '../../src/github/types.js';

/** A call the job runner made that this fake does not model (the test reached further than it meant to). */
export class UnmodelledHostCall extends Error {
  constructor(readonly method: string) {
    super(`the recording host does not model ${method}`);
    this.name = 'UnmodelledHostCall';
  }
}

/** The failure a test injects into the next call of one method. */
export class InjectedHostFailure extends Error {
  constructor(readonly method: string) {
    super(`injected failure of ${method}`);
    this.name = 'InjectedHostFailure';
  }
}

export interface HostWrite {
  method: 'upsertComment' | 'updateComment' | 'upsertCheckRun';
  /** The comment's id (updateComment: the id asked for), or the check run's external id. */
  target: string;
  body: string;
}

export interface RecordingHost {
  host: GitHost;
  /** Every write, in the order it started (failed and missed ones included). */
  writes: HostWrite[];
  /** The comments as GitHub would now show them, by id. */
  comments: Map<number, { issue: number; body: string }>;
  checkRuns: CheckRunDraft[];
  /** Failing check names per ref or commit, for `failingCheckNames`. */
  failing: Map<string, string[]>;
  /** The most writes that were in flight at once (1 when they are serialised). */
  maxInFlight(): number;
  /** Makes the next call of `method` reject with InjectedHostFailure. */
  failNext(method: HostWrite['method']): void;
}

/**
 * A GitHost holding comments and check runs in memory and recording every write, for the pure
 * job/ decisions (reporter throttling, CI guard). Each write yields to the event loop before it
 * lands, so overlapping writes would show in `maxInFlight`.
 */
export function recordingHost(): RecordingHost {
  const writes: HostWrite[] = [];
  const comments = new Map<number, { issue: number; body: string }>();
  const checkRuns: CheckRunDraft[] = [];
  const failing = new Map<string, string[]>();
  const failures = new Set<string>();
  let inFlight = 0;
  let most = 0;
  let nextId = 100;

  async function write<T>(entry: HostWrite, apply: () => T): Promise<T> {
    writes.push(entry);
    inFlight += 1;
    most = Math.max(most, inFlight);
    try {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (failures.delete(entry.method)) throw new InjectedHostFailure(entry.method);
      return apply();
    } finally {
      inFlight -= 1;
    }
  }

  const unused = (method: string) => async (): Promise<never> => {
    throw new UnmodelledHostCall(method);
  };

  const host: GitHost = {
    owner: 'octo',
    repo: 'widgets',
    upsertComment: (issue, marker, body) =>
      write({ method: 'upsertComment', target: String(issue), body }, () => {
        const found = [...comments].find(([, c]) => c.issue === issue && c.body.includes(marker));
        const id = found?.[0] ?? nextId++;
        comments.set(id, { issue, body });
        return id;
      }),
    updateComment: (commentId, body) =>
      write({ method: 'updateComment', target: String(commentId), body }, () => {
        const comment = comments.get(commentId);
        if (!comment) return false;
        comment.body = body;
        return true;
      }),
    upsertCheckRun: (draft) =>
      write({ method: 'upsertCheckRun', target: draft.externalId, body: draft.output.summary }, () => {
        checkRuns.push(draft);
        return { id: checkRuns.length, url: `https://github.com/octo/widgets/runs/${checkRuns.length}` };
      }),
    failingCheckNames: async (ref) => failing.get(ref) ?? [],
    permission: unused('permission'),
    react: unused('react'),
    comment: unused('comment'),
    editMarkedComment: unused('editMarkedComment'),
    getPullRequest: unused('getPullRequest'),
    openPullRequestsFrom: unused('openPullRequestsFrom'),
    upsertPullRequest: unused('upsertPullRequest'),
    failedChecks: unused('failedChecks'),
    issueClosure: unused('issueClosure'),
    conversation: unused('conversation'),
    reviewThreads: unused('reviewThreads'),
    replyOnce: unused('replyOnce'),
    resolveReviewThread: unused('resolveReviewThread'),
    gitToken: unused('gitToken'),
  };

  return {
    host,
    writes,
    comments,
    checkRuns,
    failing,
    maxInFlight: () => most,
    failNext: (method) => failures.add(method),
  };
}
