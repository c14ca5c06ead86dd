import type { ApplicationFunction, Context, Probot } from 'probot';
import { createGitHost } from '../github/octokit-host.js';
import type { JobQueue } from '../queue/types.js';
import { handleWebhook } from './handle-webhook.js';
import { deliveryLogger } from './logger-context.js';
import { createHttpRoutes } from './http-routes.js';
import { createRunPageRoute, type RunPageRouteDeps } from './run-page-route.js';
import type { Metrics } from './metrics.js';
import { createRefusalLimiter, type RefusalLimiter } from './refusal-limiter.js';
import { createRepoTokens, type RepoTokens } from './repo-tokens.js';
import { scopedOctokit } from '../github/scoped-octokit.js';
import { readConfigFile } from '../github/config-file.js';

export interface AppDeps {
  queue: JobQueue;
  metrics: Metrics;
  /** Tells this process's workers that a job is waiting (no-op for a receiver-only process). */
  wake: () => void;
  /** Refusal comments per repository; default 10 an hour, in this process's memory. */
  refusals?: RefusalLimiter;
  /** The signed run pages (`/runs/<job id>`); absent = not served. */
  runPages?: RunPageRouteDeps;
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
 * The Probot app: `/healthz`, `/metrics`, and one handler for every event, which decides,
 * records and acknowledges, and leaves the work to the queue's workers.
 */
export function greenfixApp(deps: AppDeps): ApplicationFunction {
  return (app, { addHandler }) => {
    addHandler(createHttpRoutes({ metrics: deps.metrics, check: () => deps.queue.counts(), onUnhealthy: (err) => app.log.error({ err }, 'health check failed') }));
    if (deps.runPages) addHandler(createRunPageRoute(deps.runPages));
    deps.metrics.setJobCounts(() => deps.queue.counts());
    const identity = memoize(() => appIdentity(app));
    const refusals = deps.refusals ?? createRefusalLimiter();
    const tokens = createRepoTokens({ now: Date.now });
    app.on([...EVENTS], async (context) => {
      const started = performance.now();
      const log = deliveryLogger(context.log, context.id, context.payload.repository?.full_name).child({ event: context.name });
      try {
        const { result, detail } = await handleWebhook(
          { event: context.name, payload: context.payload, deliveryId: context.id, host: createGitHost(repoClient(context, tokens), context.repo()), readConfig: () => readConfig(context, tokens) },
          { queue: deps.queue, identity, wake: deps.wake, refusals, log },
        );
        log.info({ result, detail }, `webhook ${result}`);
        deps.metrics.webhook(context.name, result, (performance.now() - started) / 1000);
      } catch (error) {
        deps.metrics.webhook(context.name, 'error', (performance.now() - started) / 1000);
        log.error({ err: error }, 'webhook handling failed; GitHub will show the delivery as failed and it can be redelivered');
        throw error;
      }
    });
  };
}

/**
 * The handler's REST client: the event's installation client, but with a token scoped to the
 * delivery's repository (permission checks, comments, reactions).
 */
function repoClient(context: Context, tokens: RepoTokens): Context['octokit'] {
  const ids = payloadIds(context);
  return ids ? scopedOctokit(context.octokit, tokens.repo(context.octokit, ids.installationId, ids.repositoryId)) : context.octokit;
}

/** `.github/greenfix.yml` with a contents-read token (Probot's reader, which also looks in the org's `.github` repository). */
async function readConfig(context: Context, tokens: RepoTokens): Promise<unknown> {
  const ids = payloadIds(context);
  if (!ids) return context.config('greenfix.yml');
  return readConfigFile(scopedOctokit(context.octokit, tokens.config(context.octokit, ids.installationId)), context.repo());
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
