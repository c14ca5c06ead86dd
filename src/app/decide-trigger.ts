import { defaultRepoConfig, type RepoConfig } from '../config/repo-config.js';
import type { GitHost } from '../github/types.js';
import type { JobQueue } from '../queue/types.js';
import { triggerFor } from '../triggers/route.js';
import type { ConfigGate, TriggerContext, TriggerResult } from '../triggers/types.js';
import type { WebhookEvent } from '../triggers/webhook-event.js';
import { cachedRepoConfig, type ConfigCache } from './config-cache.js';
import { answerConfigProblems } from './refusal-answers.js';
import type { RefusalLimiter } from './refusal-limiter.js';

export interface DecideTriggerInput {
  event: WebhookEvent;
  host: GitHost;
  /** The raw `.github/greenfix.yml` (Probot's `context.config`). */
  readConfig: () => Promise<unknown>;
}

export interface DecideTriggerDeps {
  identity: () => Promise<{ appId: number; botLogin: string }>;
  configs: ConfigCache;
  queue: Pick<JobQueue, 'noteOnce'>;
  refusals: RefusalLimiter;
  /** The config of a repository without a file, made once per app (validating it every delivery cost as much as the rest of the decision); default: made here. */
  defaults?: Pick<RepoConfig, 'label' | 'branch_prefix'>;
}

/**
 * The trigger's decision, and what of it the repository config must still confirm (`gate`: the
 * job is recorded, answered, and decided after the answer), or the answer to an invalid config.
 */
export type TriggerDecision = { trigger: TriggerResult; gate?: ConfigGate } | { answer: { result: 'refused'; detail: string } };

/**
 * Decides a delivery without a GitHub round trip whenever it can. Only label events (and reviews
 * that request changes: `review.on_request_changes`) depend on the repo config. When a fresh
 * config is known (config-cache.ts), they are decided as always; when not, a label that would
 * start a job (or a review that would, with the option on) becomes a job gated on the config,
 * decided after the answer. The rare rest (a label removed, a closed issue labelled) reads the
 * config first, as before, through the cache.
 */
export async function decideTrigger(input: DecideTriggerInput, deps: DecideTriggerDeps): Promise<TriggerDecision> {
  const { appId, botLogin } = await deps.identity();
  const defaults = deps.defaults ?? defaultRepoConfig();
  const base: TriggerContext = { appId, botLogin, label: defaults.label, branchPrefix: defaults.branch_prefix };
  const { event } = input;
  const { label, repository } = event;
  if (!label && !event.requestsChanges) return { trigger: triggerFor(event, base) };
  if (event.requestsChanges) {
    // A review that is a command is a job (or a refusal) whatever the option says.
    const off = triggerFor(event, base);
    if (off.type !== 'ignored') return { trigger: off };
    const on = triggerFor(event, { ...base, reviewOnRequestChanges: true });
    if (on.type === 'ignored') return { trigger: off };
    const known = repository ? deps.configs.peek(repository.id) : undefined;
    if (!known && on.type === 'job' && on.authorize) return { trigger: on, gate: { reviewOnRequestChanges: true } };
    // An invalid config is reported when a job runs; here it just means the option is off.
    const loaded = known ?? (await cachedRepoConfig(deps.configs, repository, input.readConfig));
    return { trigger: loaded.ok && loaded.config.review.on_request_changes ? on : off };
  }
  if (!label) return { trigger: triggerFor(event, base) };
  const known = deps.configs.peek(label.repoId);
  if (!known) {
    // As if the label were the configured one: whatever does not depend on that is decided now.
    const provisional = triggerFor(event, { ...base, label: label.name });
    if (provisional.type === 'ignored') return { trigger: provisional };
    if (provisional.type === 'job' && provisional.authorize) return { trigger: provisional, gate: { label: label.name } };
  }
  const loaded = known ?? (await cachedRepoConfig(deps.configs, repository, input.readConfig));
  if (loaded.ok) return { trigger: triggerFor(event, { ...base, label: loaded.config.label, branchPrefix: loaded.config.branch_prefix }) };
  if (label.action !== 'labeled') return { answer: { result: 'refused', detail: `invalid .github/greenfix.yml: ${loaded.problems.length} problem(s)` } };
  return { answer: await answerConfigProblems({ host: input.host, queue: deps.queue, refusals: deps.refusals }, label, loaded.problems) };
}
