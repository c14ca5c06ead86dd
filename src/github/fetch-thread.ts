import { parentPort } from 'node:worker_threads';
import type { FetchAnswer, FetchCall } from './github-fetch.js';
import { serveThread } from '../util/thread-rpc.js';

/**
 * The GitHub thread (github-fetch.ts): each request runs with this thread's `fetch` and its answer
 * is read whole. A failure keeps what octokit reads of it: the TypeError's cause (message and
 * code) travels as fields, since an error crosses as plain data.
 */
if (!parentPort) throw new Error("fetch-thread.ts runs only as greenfix's GitHub thread (github-fetch.ts starts it)");
serveThread(parentPort, {
  fetch: async (call: FetchCall, signal: AbortSignal): Promise<FetchAnswer> => {
    try {
      const res = await fetch(call.url, { method: call.method, headers: call.headers, body: call.body, signal, ...(call.redirect ? { redirect: call.redirect } : {}) });
      const body = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, statusText: res.statusText, headers: [...res.headers], body, url: res.url };
    } catch (error) {
      if (error instanceof TypeError && error.cause instanceof Error) {
        const code = (error.cause as { code?: unknown }).code;
        throw Object.assign(error, { causeMessage: error.cause.message, ...(typeof code === 'string' ? { causeCode: code } : {}) });
      }
      throw error;
    }
  },
});
