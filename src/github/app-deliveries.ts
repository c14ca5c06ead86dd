import type { ProbotOctokit } from 'probot';

/** One attempt at a webhook delivery, as GitHub's log of the app's deliveries lists it. */
export interface DeliveryAttempt {
  /** The attempt's id: what a redelivery names. */
  id: number;
  /** `X-GitHub-Delivery`, shared by every attempt at one delivery. */
  guid: string;
  /** When GitHub made the attempt (epoch ms). */
  deliveredAt: number;
  statusCode: number;
  event: string;
  action: string | null;
}

export interface DeliveryLogPage {
  /** Newest first. */
  attempts: DeliveryAttempt[];
  /** false: the log goes on past `since`'s page limit (what is older was not read). */
  complete: boolean;
}

const PER_PAGE = 100;

/**
 * The app's webhook delivery log (GET /app/hook/deliveries, newest first, a cursor per page), read
 * back to `since` (epoch ms) or at most `maxPages` pages. `octokit` is the app's own client (JWT).
 */
export async function readDeliveryLog(octokit: ProbotOctokit, since: number, maxPages: number): Promise<DeliveryLogPage> {
  const attempts: DeliveryAttempt[] = [];
  let pages = 0;
  for await (const { data } of octokit.paginate.iterator(octokit.rest.apps.listWebhookDeliveries, { per_page: PER_PAGE })) {
    pages += 1;
    for (const item of data) {
      const deliveredAt = Date.parse(item.delivered_at);
      if (deliveredAt < since) return { attempts, complete: true };
      attempts.push({ id: item.id, guid: item.guid, deliveredAt, statusCode: item.status_code, event: item.event, action: item.action });
    }
    if (pages >= maxPages) return { attempts, complete: data.length < PER_PAGE };
  }
  return { attempts, complete: true };
}

/** Asks GitHub to send a delivery again (POST /app/hook/deliveries/{id}/attempts): it arrives as a new attempt with the same guid. */
export async function redeliver(octokit: ProbotOctokit, attemptId: number): Promise<void> {
  await octokit.rest.apps.redeliverWebhookDelivery({ delivery_id: attemptId });
}
