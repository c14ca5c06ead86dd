/** The state of a fake GitHub repository: what greenfix did there, for tests to assert on. */
export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: string;
}

export interface FakePull {
  number: number;
  head: string;
  headSha: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: 'open' | 'closed';
  author: string;
  /** `owner/name` of the head repository (a fork when it differs). */
  headRepo: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  external_id: string;
  status: string;
  conclusion: string | null;
  output: { title?: string; summary?: string; text?: string };
  app: { id: number; slug: string };
}

/** A pull request review comment (a thread's first comment, or a reply: `inReplyTo`). */
export interface FakeReviewComment {
  id: number;
  pull: number;
  body: string;
  user: string;
  path: string;
  /** Line on `side` in the PR's head when the comment was made. */
  line: number;
  startLine: number | null;
  side: 'LEFT' | 'RIGHT';
  diffHunk: string;
  /** The thread's first comment, for a reply; null for a first comment. */
  inReplyTo: number | null;
  reviewId: number | null;
  commitId: string;
  /** GitHub marks the thread outdated (its lines changed since): `line` is then answered as null. */
  outdated: boolean;
}

export interface FakeReview {
  id: number;
  pull: number;
  user: string;
  body: string;
  state: 'COMMENTED' | 'CHANGES_REQUESTED' | 'APPROVED';
  commitId: string;
}

export interface FakeReaction {
  issue: number;
  commentId: number | null;
  content: string;
}

/** A failure to inject: the next matching request gets `status`; with `apply`, GitHub did it anyway. */
export interface InjectedFailure {
  method: string;
  path: RegExp;
  status: number;
  apply: boolean;
  headers?: Record<string, string>;
  /** The answer's JSON body; default `{ message: 'injected failure' }`. */
  body?: unknown;
  times: number;
}

/** GitHub's answer to a secondary rate limit: 403, `retry-after`, and this wording (octokit's throttling plugin matches it). */
export function secondaryRateLimit(method: string, path: RegExp, retryAfterSeconds = 0, times = 1): InjectedFailure {
  return {
    method,
    path,
    status: 403,
    apply: false,
    times,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
  };
}

export interface FakeGitHubState {
  owner: string;
  repo: string;
  appId: number;
  appSlug: string;
  token: string;
  comments: FakeComment[];
  pulls: FakePull[];
  checkRuns: FakeCheckRun[];
  reactions: FakeReaction[];
  reviews: FakeReview[];
  reviewComments: FakeReviewComment[];
  /** GraphQL ids (`PRRT_<first comment id>`) of the review threads marked resolved. */
  resolvedThreads: string[];
  /** role_name by login; absent = 'read'. */
  roles: Record<string, string>;
  /** `.github/greenfix.yml` content, or null. */
  config: string | null;
  /** Job logs by Actions job id. */
  jobLogs: Record<number, string>;
  /** Issues a test closed (who opened and who closed them); every other issue is open. */
  closedIssues: Record<number, { author: string; closedBy: string }>;
  failures: InjectedFailure[];
  /** Every request seen: `METHOD /path`. */
  requests: string[];
  /**
   * Every installation token asked for (`POST /app/installations/<id>/access_tokens`): the body
   * (`repository_ids`, `permissions`) and the token answered. A request for `contents: write`
   * only gets `token`, the one the git remote accepts; any other gets a token of its own.
   */
  tokenRequests: Array<{ body: { repository_ids?: number[]; permissions?: Record<string, string> }; token: string }>;
  /** Every request with the token it carried (`Authorization: token …`), or null. */
  requestTokens: Array<[request: string, token: string | null]>;
  /** Lifetime of the installation tokens answered (GitHub's: one hour). */
  tokenLifetimeMs: number;
  nextId: number;
  /** Called after every request is answered: lets a test await a state (see `waitForFakeState`). */
  onChange?: () => void;
  /**
   * Resolves a full ref (`refs/heads/main`) to its sha in the git remote, when a test wires one:
   * then a same-repository PR's head sha and check runs listed by branch name follow the remote,
   * as on GitHub. Unset: the stored `headSha` is answered as is.
   */
  resolveRef?: (ref: string) => string | null;
  /** The app's webhook delivery log (GET /app/hook/deliveries), oldest first; a test adds what it sent. */
  deliveries: FakeDelivery[];
  /** The attempts asked to be sent again (POST /app/hook/deliveries/<id>/attempts), in order; `onRedeliver` sends them. */
  redeliveries: number[];
  onRedeliver?: (delivery: FakeDelivery) => void;
}

/** One attempt in the delivery log, as GitHub's `hook-delivery-item` has it (the fields greenfix reads). */
export interface FakeDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  status_code: number;
  event: string;
  action: string | null;
}

export function newFakeGitHubState(overrides: Partial<FakeGitHubState> = {}): FakeGitHubState {
  return {
    owner: 'octo-org',
    repo: 'widgets',
    appId: 1,
    appSlug: 'greenfix',
    token: 'ghs_test',
    comments: [],
    pulls: [],
    checkRuns: [],
    reactions: [],
    reviews: [],
    reviewComments: [],
    resolvedThreads: [],
    roles: {},
    config: null,
    jobLogs: {},
    closedIssues: {},
    failures: [],
    requests: [],
    tokenRequests: [],
    requestTokens: [],
    tokenLifetimeMs: 3_600_000,
    nextId: 1000,
    deliveries: [],
    redeliveries: [],
    ...overrides,
  };
}
