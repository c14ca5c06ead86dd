/**
 * What a webhook asks greenfix to do, decided by pure functions (no I/O): a job to enqueue, a
 * cancellation, a refusal to answer politely, or nothing (with the reason, for the logs).
 */

/** The repository a job works on; `cloneUrl` comes from the payload (GHES works too, DESIGN §3.3). */
export interface RepoRef {
  id: number;
  owner: string;
  name: string;
  cloneUrl: string;
  defaultBranch: string;
}

/** `doctor`: the readiness check of `/agent doctor` (no fix, one comment); `review`: answers a pull request review. */
export type JobKind = 'issue' | 'retry' | 'ci_fix' | 'review' | 'doctor';

/** The failing CI a `ci_fix` job answers. Check names are sorted (they are part of the dedupe key). */
export interface CiFailure {
  headSha: string;
  headRef: string;
  checks: string[];
  checkRunIds: number[];
  workflowRunId?: number;
  /**
   * The PR's head branch starts with greenfix's branch prefix: fixed by default (`autofix.own`).
   * Otherwise a human's PR, fixed only when the repo config opts in (`autofix.humans`), which the
   * worker checks against the repo config. Set by the CI triggers.
   */
  ownPullRequest?: boolean;
}

/**
 * Everything a worker needs to start a job, and nothing secret: it is stored in clear by the queue.
 * Details that can change before the job runs (a PR's head, say) are looked up when it runs.
 */
export interface JobRequest {
  kind: JobKind;
  installationId: number;
  repo: RepoRef;
  /** The issue or pull request the job answers on (its status comment goes there). */
  number: number;
  target: 'issue' | 'pull_request';
  /** Issue or PR title and body, untrusted text (sanitised before the model sees it). */
  title: string;
  body: string;
  /** Login of the person who asked. */
  sender: string;
  /** Extra instructions from `/agent retry …`. */
  instructions?: string;
  /** With `ci_fix`: what failed. */
  ci?: CiFailure;
  /** With `review`: the review (all its threads) or the one review comment (its thread) to answer. */
  review?: ReviewScope;
  /**
   * Recorded before the repository's config was read (the webhook answers first): what it must
   * say for the job to exist at all (config-gate.ts). Decided with the sender, before anything runs.
   */
  configGate?: ConfigGate;
}

/**
 * What a `review` job answers: a submitted review (`reviewId`: every thread with a comment of that
 * review, in one commit) or one review comment (`commentId`: its thread only). The threads
 * themselves are read when the job runs (replies may have come since).
 */
export interface ReviewScope {
  reviewId?: number;
  commentId?: number;
  /** The review's body (untrusted, capped); empty for a single review comment. */
  body: string;
}

/** Stops what runs (or waits) for one issue or PR. */
export interface CancelRequest {
  installationId: number;
  repo: RepoRef;
  number: number;
  target: 'issue' | 'pull_request';
  sender: string;
  /** Why: `/agent cancel`, the issue closed, the label removed, the PR closed. */
  reason: string;
  /** true when a person asked explicitly (`/agent cancel`): the answer is visible even if nothing ran. */
  explicit: boolean;
}

/** A trigger refused for a reason the sender should hear (once), e.g. a fork PR. */
export interface Refusal {
  installationId: number;
  repo: RepoRef;
  number: number;
  sender: string;
  /** Stable code, part of the "answer once" key. */
  code: string;
  message: string;
}

export type TriggerResult =
  | {
      type: 'job';
      request: JobRequest;
      /** Needs the sender's permission checked first. */
      authorize: boolean;
      /** Not a command (a `changes_requested` review): a sender without write access gets no answer. */
      quiet?: boolean;
    }
  | {
      type: 'cancel';
      request: CancelRequest;
      authorize: boolean;
      /**
       * `pull_request.closed` with `merged`: the merge to record, when GitHub says (`merged_at`,
       * epoch ms; null: not said). Any PR's: the store counts only the ones greenfix opened.
       */
      merged?: { at: number | null };
    }
  /**
   * With `authorize`, the refusal answers a command (`/agent …`): it goes to collaborators only,
   * so the sender's permission is checked before anything is said.
   */
  | { type: 'refuse'; refusal: Refusal; authorize?: boolean }
  | { type: 'ignored'; reason: string };

/** What triggers need to know about greenfix itself and the repository's config. */
export interface TriggerContext {
  /** The app's id: its own check runs never trigger a fix. */
  appId: number;
  /** The app's bot login (`<slug>[bot]`): its own comments are ignored. */
  botLogin: string;
  /** The label that starts a fix (repo config, default `agent-fix`). */
  label: string;
  /** Branch prefix of greenfix's own PRs (repo config, default `greenfix/`). */
  branchPrefix: string;
  /** `review.on_request_changes` (repo config): any `changes_requested` review starts a job. Default false. */
  reviewOnRequestChanges?: boolean;
}

/**
 * What the repository's config must say for a job recorded before it was read to exist: the
 * label that was added is the one it configured (`issues.labeled`), or `review.on_request_changes`
 * is on (a `changes_requested` review without a command). Stored with the job's request; decided
 * after the webhook's answer (app/authorize-job.ts, with config-gate.ts).
 */
export type ConfigGate = { label: string } | { reviewOnRequestChanges: true };

/** The subject key: one active job per issue or PR of a repository. */
export function subjectKey(repo: Pick<RepoRef, 'id'>, number: number): string {
  return `${repo.id}#${number}`;
}
