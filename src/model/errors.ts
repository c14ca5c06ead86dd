/**
 * Why a model call failed, as data. Callers branch on `kind`, never on message text.
 * - auth: 401/403, the key is wrong or lacks access
 * - not_found: 404, usually an unknown model name or a wrong base URL
 * - bad_request: 400/422, the request was refused as malformed
 * - transient: retryable failures (408, 409, 429, 5xx, timeouts, resets) that outlived the retries
 * - invalid_response: the endpoint answered with something that is not a chat completion
 * - truncated: the reply hit its token limit before any tool call (`finish_reason: "length"`)
 */
export type ModelErrorKind = 'auth' | 'not_found' | 'bad_request' | 'transient' | 'invalid_response' | 'truncated';

export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
