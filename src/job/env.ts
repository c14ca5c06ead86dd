import type { FixWrappers } from '../fix/fix-wrappers.js';
import type { Tokens } from '../agent/types.js';
import type { GitHost } from '../github/types.js';
import type { ModelPrice } from '../model/prices.js';
import type { ChatModel } from '../model/types.js';
import type { OperatorCaps } from '../config/operator-caps.js';
import type { SetupSecretGrant } from '../config/setup-secrets.js';
import type { JobQueue, SpendCap } from '../queue/types.js';
import type { ImageCache } from '../image/image-cache.js';
import type { Sandbox } from '../sandbox/types.js';
import type { DepCache } from '../workspace/dep-cache.js';
import type { JobRequest } from '../triggers/types.js';
import type { PushBranch } from '../workspace/push-branch.js';

export interface JobLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What every job of a worker process shares; built once at startup (serve command, tests). */
export interface JobEnv {
  /** GREENFIX_WORKDIR: mirrors and jobs live under it. */
  workdir: string;
  sandbox: Sandbox;
  model: ChatModel;
  /** The operator's setup secrets (GREENFIX_SETUP_SECRETS_FILE); a repository asks for them by name. */
  setupSecrets?: readonly SetupSecretGrant[];
  /**
   * Environment images (`<workdir>/images`) and the operator's default image; absent: every job
   * runs on the host's userland, and a repository naming an image is told images are not set up here.
   */
  images?: { cache: ImageCache; defaultImage?: string };
  /** The workdir's dependency cache (`<workdir>/dep-cache`); absent = every setup installs. */
  depCache?: DepCache;
  /** The model's price (GREENFIX_PRICES or built in); null or absent: every report says "cost unknown". */
  price?: ModelPrice | null;
  /** A GitHost for the request's installation and repository. */
  hostFor(request: JobRequest): Promise<GitHost>;
  /** The raw `.github/greenfix.yml` (null when absent); throws on a YAML syntax error. */
  readConfig(request: JobRequest): Promise<unknown>;
  /** The subject's earlier jobs (CI guards), budget reservations (caps), the PRs a job opened (recorded, and read by the PR limits). */
  queue: Pick<JobQueue, 'listBySubject' | 'reserve' | 'recordPullRequest' | 'pullRequestsOpenedSince'>;
  /** The operator's spend caps (GREENFIX_*_USD); absent: only the repositories' own caps apply. */
  caps?: OperatorCaps;
  /** Called with the caps a job runs under (and its repository's name), for the budget gauge. */
  onCaps?: (caps: readonly SpendCap[], repo: string) => void;
  /** Pushes a verified commit's branch (workspace/push-branch.ts, as this process wraps it). */
  push: PushBranch;
  /** How this process wraps each fix's effects. */
  wrap: FixWrappers;
  now: () => number;
  log: JobLog;
  /** Minimum milliseconds between progress edits of a status comment. */
  progressIntervalMs: number;
  /** Secrets of this process (API key, webhook secret, …) the run log redacts wherever they appear. */
  secrets?: readonly string[];
  /** The signed link to a job's run page, or null when no public URL is set (GREENFIX_PUBLIC_URL). */
  runPageUrl?: (jobId: string) => string | null;
  /**
   * Called once per finished job, for metrics; tokens as the model endpoint reported them (a failed
   * or cancelled job: up to its last reply), `costUsd` null when the model has no price.
   */
  onFinished?: (summary: { kind: string; repo: string; outcome: string; seconds: number; tokens: Tokens; costUsd: number | null; steps: number }) => void;
}
