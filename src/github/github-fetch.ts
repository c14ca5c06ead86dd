import { ThreadClient, threadScript, type WireError } from '../util/thread-rpc.js';

/** A request as it crosses to the GitHub thread: plain data only. */
export interface FetchCall {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: string | Uint8Array | null;
  redirect?: RequestInit['redirect'];
}

/** Its answer, the body read whole (GitHub's REST answers are small). */
export interface FetchAnswer {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
  url: string;
}

/**
 * The GitHub thread (docs/decisions.md "GitHub's HTTP exchanges run on their own thread"), one per
 * process, started by the first request. Run from TypeScript sources (the test runner, where nock
 * intercepts the calling thread's fetch) there is no script for it: requests go out from the
 * calling thread.
 */
const script = threadScript(import.meta.url, 'github/fetch-thread.js');
const thread = script ? new ThreadClient(script, reviveFetchError) : undefined;

/**
 * `fetch` for octokit (`request.fetch`): the HTTP exchange — connection, TLS, undici's parsing and
 * streams, about two thirds of a REST call's CPU — runs on the GitHub thread, and the calling
 * thread (the one answering webhooks) only builds the request and reads the answer. Same results
 * and errors as `fetch`: a network failure is a TypeError whose `cause` says why, an abort an
 * AbortError. A body that is neither text nor bytes (a stream) is sent from the calling thread.
 */
export async function githubFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body ?? null;
  const plainBody = body === null || typeof body === 'string' ? body : body instanceof Uint8Array ? body : body instanceof ArrayBuffer ? new Uint8Array(body) : undefined;
  if (!thread || input instanceof Request || plainBody === undefined) return globalThis.fetch(input, init);
  const call: FetchCall = {
    url: String(input),
    method: init.method ?? 'GET',
    headers: [...new Headers(init.headers)],
    body: plainBody,
    ...(init.redirect ? { redirect: init.redirect } : {}),
  };
  const answer = (await thread.call('fetch', call, init.signal ?? undefined)) as FetchAnswer;
  return answerToResponse(answer);
}

/** The answer as a Response, with the URL it came from (octokit reports it). */
function answerToResponse(a: FetchAnswer): Response {
  const nullBody = a.status === 101 || a.status === 204 || a.status === 205 || a.status === 304;
  const response = new Response(nullBody ? null : a.body, { status: a.status, statusText: a.statusText, headers: a.headers });
  Object.defineProperty(response, 'url', { value: a.url });
  return response;
}

/** fetch's own error shapes again: the TypeError with its cause (octokit quotes the cause's message), the AbortError. */
function reviveFetchError(w: WireError): Error | null {
  if (w.name === 'AbortError') return Object.assign(new Error(w.message), { name: 'AbortError' });
  if (w.name !== 'TypeError' || typeof w.fields.causeMessage !== 'string') return null;
  const cause = Object.assign(new Error(w.fields.causeMessage), typeof w.fields.causeCode === 'string' ? { code: w.fields.causeCode } : {});
  return new TypeError(w.message, { cause });
}

type OctokitClass = { defaults(fn: (options: { request?: object }) => object): unknown };

/** The app's Octokit class with its requests' HTTP exchanges on the GitHub thread (`githubFetch`); a `request.fetch` given per client still wins. */
export function onGitHubThread<T extends OctokitClass>(Octokit: T): T {
  return Octokit.defaults((options) => ({ ...options, request: { fetch: githubFetch, ...options.request } })) as T;
}
