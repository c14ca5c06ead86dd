/** The fields of an error that messages use, whatever shape the endpoint wrote it in. */
export interface ErrorFields {
  message?: string;
  code?: string | number;
  param?: string;
}

/**
 * Reads an error body in every shape compatible endpoints document: OpenAI's
 * `{"error": {"message", "type", "param", "code"}}`
 * (https://platform.openai.com/docs/guides/error-codes); Gemini's compatible endpoint's
 * array `[{"error": {"code", "message", "status"}}]`; Ollama's and llama.cpp's
 * `{"error": "text"}`; vLLM's and others' top-level `{"message": …}` or `{"detail": …}`.
 * Null when nothing in it reads as an error.
 */
export function errorFieldsOf(body: unknown): ErrorFields | null {
  const item = Array.isArray(body) ? body[0] : body;
  if (typeof item !== 'object' || item === null) return typeof item === 'string' && item.trim() ? { message: item.trim() } : null;
  const record = item as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === 'string') return { message: inner };
  const source = typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : record;
  const message = textOf(source.message) ?? textOf(source.detail) ?? textOf(record.detail);
  const code = typeof source.code === 'string' || typeof source.code === 'number' ? source.code : textOf(source.status);
  const param = textOf(source.param);
  if (message === undefined && code === undefined) return null;
  return { ...(message !== undefined ? { message } : {}), ...(code !== undefined ? { code } : {}), ...(param !== undefined ? { param } : {}) };
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value;
  if (Array.isArray(value) || (typeof value === 'object' && value !== null)) return JSON.stringify(value);
  return undefined;
}
