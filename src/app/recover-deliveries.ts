import type { ProbotOctokit } from 'probot';
import { readDeliveryLog, redeliver, type DeliveryAttempt } from '../github/app-deliveries.js';
import type { AnsweredDeliveries } from '../queue/answered-deliveries.js';
import { errorText } from '../util/error-text.js';

export interface RecoverDeliveriesDeps {
  answered: AnsweredDeliveries;
  /** The app's own client (JWT): its webhook delivery log. */
  octokit: () => Promise<ProbotOctokit>;
  /** What the receiver records: events, or `event.action`s (greenfix-app.ts's EVENTS). */
  events: readonly string[];
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** How far before the newest record the log is read (GitHub's clock against ours, answers in flight); default 10 minutes. */
  marginMs?: number;
  /** Pages of 100 attempts read at most; default 50. */
  maxPages?: number;
}

const DEFAULT_MARGIN_MS = 10 * 60_000;
const DEFAULT_MAX_PAGES = 50;

/**
 * The deliveries of the log the receiver answered (2xx: GitHub was told they were taken) for an
 * event it records, yet has no record of: taken by a power cut between the answer and the disk
 * sync. One attempt per delivery, the newest, which a redelivery names.
 */
export function lostDeliveries(attempts: readonly DeliveryAttempt[], unknown: ReadonlySet<string>, events: readonly string[]): DeliveryAttempt[] {
  const recorded = new Set(events);
  const lost = new Map<string, DeliveryAttempt>();
  for (const attempt of attempts) {
    const answered = attempt.statusCode >= 200 && attempt.statusCode < 300;
    const event = recorded.has(attempt.event) || (attempt.action !== null && recorded.has(`${attempt.event}.${attempt.action}`));
    if (!answered || !event || !unknown.has(attempt.guid)) continue;
    const seen = lost.get(attempt.guid);
    if (!seen || attempt.deliveredAt > seen.deliveredAt) lost.set(attempt.guid, attempt);
  }
  return [...lost.values()];
}

/**
 * At a receiver's start: GitHub's log of the app's deliveries since shortly before the newest
 * thing the queue recorded (`checkFrom`), against what the queue knows; each delivery answered but
 * unknown is asked for again, and arrives through the webhook like any other. Nothing answered
 * since the queue began recording: nothing can have been lost, and the log is not read.
 * Returns how many deliveries were asked for again.
 */
export async function recoverDeliveries(deps: RecoverDeliveriesDeps): Promise<number> {
  const since = await deps.answered.checkFrom(deps.marginMs ?? DEFAULT_MARGIN_MS);
  if (since === null) return 0;
  const octokit = await deps.octokit();
  const log = await readDeliveryLog(octokit, since, deps.maxPages ?? DEFAULT_MAX_PAGES);
  if (!log.complete) deps.log.warn({ read: log.attempts.length, since: new Date(since).toISOString() }, 'GitHub\'s delivery log goes on past the pages read: older deliveries were not checked for loss');
  const guids = [...new Set(log.attempts.map((a) => a.guid))];
  const lost = lostDeliveries(log.attempts, new Set(await deps.answered.unknown(guids)), deps.events);
  let asked = 0;
  for (const attempt of lost) {
    try {
      await redeliver(octokit, attempt.id);
      asked += 1;
    } catch (error) {
      deps.log.warn({ deliveryId: attempt.guid, attempt: attempt.id, err: errorText(error) }, 'a delivery answered before a power cut and lost could not be asked for again: redeliver it from the app\'s settings');
    }
  }
  if (lost.length > 0) deps.log.warn({ lost: lost.length, redelivered: asked, deliveries: lost.map((a) => a.guid) }, 'deliveries answered before greenfix stopped were not recorded (a power cut): asked GitHub to send them again');
  else deps.log.info({ checked: guids.length, since: new Date(since).toISOString() }, 'GitHub\'s delivery log checked: no answered delivery is missing');
  return asked;
}
