import type { ApplicationFunction, Context, Probot, ProbotOctokit } from 'probot';
import { createGitHost } from '../github/octokit-host.js';
import type { GitHost } from '../github/types.js';
import type { JobQueue } from '../queue/types.js';
import { createAfterAnswer, type AfterAnswer } from './after-answer.js';
import { authorizeWaiting, type AuthorizeWaitingDeps } from './authorize-waiting.js';
import { createConfigCache, type ConfigCache } from './config-cache.js';
import { configChangedBy } from './config-push.js';
import { handleWebhook } from './handle-webhook.js';
import { createPermissionCache, type PermissionCache } from './permission-cache.js';
import { deliveryLogger } from './logger-context.js';
import { createHttpRoutes } from './http-routes.js';
import { createRunPageRoute, type RunPageRouteDeps } from './run-page-route.js';
import type { Metrics } from './metrics.js';
import { createRefusalLimiter, type RefusalLimiter } from './refusal-limiter.js';
import { createRepoClients, type RepoClients } from './repo-clients.js';
import { readConfigFile } from '../github/config-file.js';
import { defaultRepoConfig } from '../config/repo-config.js';

export interface AppDeps {
  queue: JobQueue;
  metrics: Metrics;
  /** Tells this process's workers that a job is waiting (no-op for a receiver-only process). */
  wake: () => void;
  /** Refusal comments per repository; default 10 an hour, in this process's memory. */
  refusals?: RefusalLimiter;
  /** The signed run pages (`/runs/<job id>`); absent = not served. */
  runPages?: RunPageRouteDeps;
  /** Where work after a delivery's answer runs (the caller waits for it on stop); default one of its own. */
  afterAnswer?: AfterAnswer;
  /** Senders' permissions; default 60 s, in this process's memory. */
  permissions?: PermissionCache;
  /** Repository configs; default 30 s, in this process's memory. */
  configs?: ConfigCache;
  /** The sweep for jobs left 'authorizing': how often a delivery may start one, and how old a job must be. */
  sweep?: { everyMs: number; strandedAfterMs: number };
}

/** The events greenfix listens to (app.yml subscribes to the same). */
export const EVENTS = [
  'issues.labeled',
  'issues.unlabeled',
  'issues.closed',
  'issue_comment.created',
  'check_run.completed',
  'workflow_run.completed',
  'pull_request.closed',
  'pull_request_review.submitted',
  'pull_request_review_comment.created',
] as const;

/**
 * A push to a default branch that touches `.github/greenfix.yml` forgets its cached config
 * (config-push.ts); nothing else happens on a push.
 */
export const CONFIG_EVENTS = ['push'] as const;

/**
 * Events that change who may ask greenfix for work: a cached permission of the login they name is
 * forgotten. app.yml does not subscribe to them: GitHub sends them only to an app with the
 * organization "Members" permission, which greenfix does not ask for (docs/decisions.md,
 * "Authorising after the answer"); an operator who grants it and subscribes gets them handled.
 */
export const MEMBER_EVENTS = ['member', 'membership', 'organization.member_removed', 'organization.member_added'] as const;

/**
 * At most one sweep a minute, started by a delivery (after its answer), for jobs left 'authorizing'
 * for 30 s: taken to be a stopped receiver's, or one whose permission check failed.
 */
const DEFAULT_SWEEP = { everyMs: 60_000, strandedAfterMs: 30_000 };

/**
 * The Probot app: `/healthz`, `/metrics`, and one handler for every event, which decides,
 * records and acknowledges, and leaves the work to the queue's workers.
 */
export function greenfixApp(deps: AppDeps): ApplicationFunction {
  return (app, { addHandler }) => {
    addHandler(createHttpRoutes({ metrics: deps.metrics, check: () => deps.queue.counts(), onUnhealthy: (err) => app.log.error({ err }, 'health check failed') }));
    if (deps.runPages) addHandler(createRunPageRoute(deps.runPages));
    deps.metrics.setJobCounts(() => deps.queue.counts());
    deps.metrics.setPullRequestStats(() => deps.queue.stats());
    const identity = memoize(() => appIdentity(app));
    const refusals = deps.refusals ?? createRefusalLimiter();
    const clients = createRepoClients({ now: Date.now, appClient: memoize(() => app.auth()) });
    const afterAnswer = deps.afterAnswer ?? createAfterAnswer({ warn: (obj, msg) => app.log.warn(obj, msg) });
    const permissions = deps.permissions ?? createPermissionCache({ now: Date.now });
    const configs = deps.configs ?? createConfigCache({ now: Date.now });
    const defaults = defaultRepoConfig();
    const sweepDeps: AuthorizeWaitingDeps = {
      queue: deps.queue,
      permissions,
      configs,
      refusals,
      afterAnswer,
      wake: deps.wake,
      log: app.log,
      hostFor: async (request) => {
        const installation = await app.auth(request.installationId);
        return clients.repoHost(installation, request.installationId, { id: request.repo.id, owner: request.repo.owner, name: request.repo.name });
      },
      readConfigFor: async (request) => {
        const installation = await app.auth(request.installationId);
        return readConfigFile(clients.config(installation, request.installationId), { owner: request.repo.owner, repo: request.repo.name });
      },
    };
    // At start, every job left waiting is a stopped receiver's: decide them all now. Then at most
    // one sweep a minute, started by a delivery, for those stranded since (another receiver's, or
    // a failed check's).
    const sweep = deps.sweep ?? DEFAULT_SWEEP;
    let lastSweep = Date.now();
    afterAnswer.run('authorising jobs left waiting', () => authorizeWaiting(sweepDeps, Number.MAX_SAFE_INTEGER));
    const sweepNowAndThen = () => {
      const now = Date.now();
      if (now - lastSweep < sweep.everyMs) return;
      lastSweep = now;
      afterAnswer.run('authorising jobs left waiting', () => authorizeWaiting(sweepDeps, now - sweep.strandedAfterMs));
    };
    app.on([...MEMBER_EVENTS], async (context) => {
      const { login, repoId } = memberOf(context.payload);
      if (login) permissions.forget(login, context.name === 'member' ? repoId : undefined);
    });
    app.on([...CONFIG_EVENTS], async (context) => {
      const stale = configChangedBy(context.payload);
      if (stale) configs.forget(stale);
    });
    app.on([...EVENTS], async (context) => {
      const started = performance.now();
      const log = deliveryLogger(context.log, { deliveryId: context.id, repo: context.payload.repository?.full_name, event: context.name });
      try {
        const { result, detail } = await handleWebhook(
          { event: context.name, payload: context.payload, deliveryId: context.id, host: repoHost(context, clients), readConfig: configReader(context, clients) },
          { queue: deps.queue, identity, wake: deps.wake, refusals, permissions, configs, afterAnswer, log, defaults },
        );
        // A job records its delivery; every other answer is recorded here, so that after a power
        // cut GitHub's delivery log shows what was answered and lost (recover-deliveries.ts).
        if (result !== 'enqueued') await deps.queue.answered?.record(context.id);
        log.info({ result, detail }, `webhook ${result}`);
        deps.metrics.webhook(context.name, result, (performance.now() - started) / 1000);
        sweepNowAndThen();
      } catch (error) {
        deps.metrics.webhook(context.name, 'error', (performance.now() - started) / 1000);
        log.error({ err: error }, 'webhook handling failed; GitHub will show the delivery as failed and it can be redelivered');
        throw error;
      }
    });
  };
}

/**
 * The handler's GitHost: the event's installation client, but with a token scoped to the
 * delivery's repository (permission checks, comments, reactions), kept across deliveries.
 */
function repoHost(context: Context, clients: RepoClients): GitHost {
  const ids = payloadIds(context);
  const { owner, repo } = context.repo();
  return ids ? clients.repoHost(context.octokit, ids.installationId, { id: ids.repositoryId, owner, name: repo }) : createGitHost(context.octokit, { owner, repo });
}

/**
 * Reads `.github/greenfix.yml` with a contents-read token (Probot's reader, which also looks in the
 * org's `.github` repository). The reader holds the installation's config client and the
 * repository's name, not the event's context: work after the answer may call it long after.
 */
function configReader(context: Context, clients: RepoClients): () => Promise<unknown> {
  const ids = payloadIds(context);
  if (!ids) return () => context.config('greenfix.yml');
  return fileReader(clients.config(context.octokit, ids.installationId), context.repo());
}

/** A function of its own, so that its closure holds these two and not the context beside them. */
function fileReader(client: ProbotOctokit, repo: { owner: string; repo: string }): () => Promise<unknown> {
  return () => readConfigFile(client, repo);
}

/** The login a member event is about (`member`: a collaborator; `membership`/`organization`: an org or team member) and its repository. */
function memberOf(payload: unknown): { login: string | null; repoId: number | undefined } {
  const p = payload as { member?: { login?: unknown }; membership?: { user?: { login?: unknown } | null }; repository?: { id?: unknown } };
  const login = p.member?.login ?? p.membership?.user?.login;
  const repoId = p.repository?.id;
  return { login: typeof login === 'string' ? login : null, repoId: typeof repoId === 'number' ? repoId : undefined };
}

function payloadIds(context: Context): { installationId: number; repositoryId: number } | null {
  const payload = context.payload as { installation?: { id?: unknown }; repository?: { id?: unknown } };
  const installationId = payload.installation?.id;
  const repositoryId = payload.repository?.id;
  return typeof installationId === 'number' && typeof repositoryId === 'number' ? { installationId, repositoryId } : null;
}

async function appIdentity(app: Probot): Promise<{ appId: number; botLogin: string }> {
  const octokit = await app.auth();
  const { data } = await octokit.rest.apps.getAuthenticated();
  if (!data) throw new Error('GitHub did not describe the app (GET /app)');
  return { appId: data.id, botLogin: `${data.slug ?? 'greenfix'}[bot]` };
}

/** One lookup per app instance; a failed one is tried again next time. */
function memoize<T>(fn: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => {
    value ??= fn().catch((error: unknown) => {
      value = null;
      throw error;
    });
    return value;
  };
}
