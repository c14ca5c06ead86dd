import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { clipHeadTail } from '../util/clip.js';
import { AttemptTimeoutError } from './attempt-timeout.js';
import { ModelError } from './errors.js';
import { parameterHint } from './parameter-hint.js';
import type { ProfileName } from './provider-profile.js';
import { describeEndpoint, redactSecret } from './redact.js';
import { parseRetryAfterMs } from './retry-after.js';
import { isTransientStatus } from './retry-policy.js';
import type { Failure } from './with-retries.js';

export interface ErrorContext {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  now: () => number;
  /** The profile in use: a refused parameter is answered with the setting that fixes it. */
  profile: ProfileName;
}

/**
 * Turns whatever the openai client threw into a retry decision or a ModelError whose message
 * says what to fix. Messages never contain the API key.
 */
export function classifyOpenAIError(error: unknown, ctx: ErrorContext): Failure {
  if (error instanceof ModelError) return { transient: false, error };
  if (error instanceof AttemptTimeoutError || error instanceof APIConnectionTimeoutError) {
    return { transient: true, reason: `no answer from ${describeEndpoint(ctx.baseURL)} within ${ctx.timeoutMs} ms` };
  }
  if (error instanceof APIConnectionError) {
    return { transient: true, reason: `cannot reach ${describeEndpoint(ctx.baseURL)}: ${detailOf(error, ctx)}` };
  }
  if (error instanceof APIError && typeof error.status === 'number') return classifyStatus(error, error.status, ctx);
  // By name, not instanceof: the SyntaxError comes from fetch's realm, which may differ from ours.
  if (isErrorLike(error) && error.name === 'SyntaxError') {
    return { transient: false, error: new ModelError('invalid_response', `the model endpoint answered with invalid JSON: ${detailOf(error, ctx)}`) };
  }
  if (isSocketFailure(error)) {
    return { transient: true, reason: `the connection broke while reading the answer: ${detailOf(error, ctx)}` };
  }
  return { transient: false, error };
}

function classifyStatus(error: APIError, status: number, ctx: ErrorContext): Failure {
  const endpoint = describeEndpoint(ctx.baseURL);
  if (isTransientStatus(status)) {
    const retryAfterMs = parseRetryAfterMs(error.headers, ctx.now());
    return { transient: true, status, reason: `HTTP ${status}: ${detailOf(error, ctx)}`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  }
  const fail = (kind: ModelError['kind'], message: string): Failure => ({ transient: false, error: new ModelError(kind, message, status) });
  if (status === 401 || status === 403) {
    // The server's own text is left out: some servers quote the key they refused.
    return fail('auth', `the model endpoint ${endpoint} refused the API key (${status}): check OPENAI_API_KEY and that it may use model '${ctx.model}'`);
  }
  if (status === 404) {
    return fail('not_found', `the model endpoint answered 404: unknown model '${ctx.model}' or wrong OPENAI_BASE_URL (${endpoint}); ${detailOf(error, ctx)}`);
  }
  const detail = detailOf(error, ctx);
  const hint = status === 400 || status === 422 ? parameterHint(detail, typeof error.param === 'string' ? error.param : undefined, ctx.profile) : null;
  if (hint) return fail('bad_request', `the model endpoint ${endpoint} refused the request (${status}): ${hint} (it said: ${detail})`);
  return fail('bad_request', `the model endpoint ${endpoint} refused the request (${status}): ${detail}`);
}

/** The most useful short text about an error: the server's `error.message` if any, clipped, key removed. */
function detailOf(error: unknown, ctx: ErrorContext): string {
  let text = isErrorLike(error) ? error.message : String(error);
  if (error instanceof APIError) {
    const body = error.error as { message?: unknown } | undefined;
    if (body && typeof body.message === 'string') text = body.message;
  }
  const code = causeCode(error);
  if (code) text += ` (${code})`;
  return clipHeadTail(redactSecret(text, ctx.apiKey), 500);
}

/** undici reports a socket that died mid-body as a TypeError whose cause has an error code. */
function isSocketFailure(error: unknown): boolean {
  const code = causeCode(error);
  return code !== undefined && (code.startsWith('UND_ERR_') || code.startsWith('ECONN') || code === 'EPIPE');
}

/** The first system error code down the `cause` chain (fetch wraps the socket error twice). */
function causeCode(error: unknown): string | undefined {
  let current: unknown = isErrorLike(error) ? error.cause : undefined;
  for (let depth = 0; depth < 4 && isErrorLike(current); depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

/** Duck-typed Error check that also holds for errors made in another realm (fetch, vm contexts). */
function isErrorLike(value: unknown): value is Error {
  return typeof value === 'object' && value !== null && typeof (value as Error).message === 'string' && typeof (value as Error).name === 'string';
}
