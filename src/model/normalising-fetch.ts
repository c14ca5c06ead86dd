import { errorFieldsOf } from './error-body.js';

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch whose error answers carry OpenAI's `{"error": {…}}` shape, which is the only one the
 * openai client reads: Gemini's array body otherwise surfaces as "400 status code (no body)".
 * Successful answers pass through untouched.
 */
export function normalisingFetch(inner: Fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok) return response;
    const text = await response.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the text itself is the message
    }
    const fields = errorFieldsOf(json);
    const body = fields ? JSON.stringify({ error: fields }) : text;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (fields) headers.set('content-type', 'application/json');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
