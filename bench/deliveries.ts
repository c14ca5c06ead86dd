import { examplePayload, sendWebhook, withInstallation } from '../test/support/webhook-client.js';
import { BENCH_INSTALLATION, BENCH_SECRET } from './app-fixture.js';

/** One webhook delivery as GitHub sends it: event, id, payload (signed when sent). */
export interface Delivery {
  id: string;
  payload: Record<string, unknown>;
}

export interface Answer {
  status: number;
  ms: number;
}

const TEMPLATE = examplePayload('issues', 'labeled') as Record<string, any>;

/** `issues.labeled` on issue `number` of `repository` by `sender` (default octocat, an admin); `label` decides what greenfix does. */
export function labeled(repository: Record<string, unknown>, number: number, label: string, sender = 'octocat'): Record<string, unknown> {
  const payload = structuredClone(TEMPLATE);
  Object.assign(payload, {
    repository,
    issue: { ...payload.issue, number, title: `Bench issue ${number}`, body: 'make test should pass', state: 'open', pull_request: undefined },
    label: { ...payload.label, name: label },
    sender: { login: sender, type: 'User', id: sender === 'octocat' ? 1 : 1_000 + sender.length },
  });
  return withInstallation(payload, BENCH_INSTALLATION);
}

/** Sends one signed delivery over a fresh connection (as GitHub does); a transport error is status 0. */
export async function deliver(url: string, d: Delivery): Promise<Answer> {
  try {
    const answer = await sendWebhook(url, { event: 'issues', deliveryId: d.id, payload: d.payload, secret: BENCH_SECRET });
    return { status: answer.status, ms: answer.ms };
  } catch {
    return { status: 0, ms: Number.NaN };
  }
}

/** One at a time: each answer's latency undisturbed by the others. */
export async function deliverSequentially(url: string, deliveries: Delivery[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const d of deliveries) answers.push(await deliver(url, d));
  return answers;
}

/** `connections` senders pulling from one list: a burst as a redelivery storm would send it. */
export async function deliverConcurrently(url: string, deliveries: Delivery[], connections: number): Promise<Answer[]> {
  const answers: Answer[] = new Array(deliveries.length);
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < deliveries.length; i = next++) answers[i] = await deliver(url, deliveries[i]!);
  };
  await Promise.all(Array.from({ length: connections }, sender));
  return answers;
}

export interface LatencyStats {
  count: number;
  /** Answered neither 200 nor 202 (0: no answer at all). */
  failed: number;
  /** 202 "still processing": Probot's middleware answers so after 9 s when the handler has not finished. */
  late: number;
  p50: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of the answered (200 or 202) deliveries' latencies, in ms. */
export function latencyStats(answers: Answer[]): LatencyStats {
  const answered = answers.filter((a) => a.status === 200 || a.status === 202);
  const ms = answered.map((a) => a.ms).sort((a, b) => a - b);
  const rank = (p: number) => ms[Math.min(ms.length - 1, Math.max(0, Math.ceil((p / 100) * ms.length) - 1))] ?? Number.NaN;
  const late = answered.filter((a) => a.status === 202).length;
  return { count: answers.length, failed: answers.length - answered.length, late, p50: rank(50), p99: rank(99), max: ms.at(-1) ?? Number.NaN };
}
