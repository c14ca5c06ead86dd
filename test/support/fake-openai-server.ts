import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** How the server answers one request; `never` holds it open until the server closes. */
export type Reply =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | { reset: true }
  | { never: true }
  /** Sends the headers and half a body, then nothing. */
  | { stall: true };

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions wire format. It answers the
 * n-th request with the n-th queued reply (the last one repeats) and records every request.
 */
export class FakeOpenAIServer {
  readonly requests: SeenRequest[] = [];
  private replies: Reply[] = [];
  /** Scripted replies used so far: handoff-summary requests answered by `handoffSummary` take none. */
  private scriptedSeen = 0;
  /** When set, a request without tools (the agent's handoff summary) gets this text, off the script. */
  private handoffText: string | null = null;
  /** A provider's rules (provider-rules.ts): a request they refuse gets the refusal, off the script. */
  private rules: ((body: unknown) => Reply | null) | null = null;
  private readonly waiters: Array<() => void> = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<FakeOpenAIServer> {
    const fake = new FakeOpenAIServer();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseURL(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** Sets the replies for the next requests and forgets earlier requests. */
  script(...replies: Reply[]): void {
    this.replies = replies;
    this.requests.length = 0;
    this.scriptedSeen = 0;
  }

  /** Checks every request against a provider's rules; a refusal answers it instead of the script. */
  enforce(rules: ((body: unknown) => Reply | null) | null): void {
    this.rules = rules;
  }

  /** Answers every handoff-summary request (a request with no tools) with `text`, outside the script. */
  answerHandoffs(text: string): void {
    this.handoffText = text;
  }

  /** Resolves once the next request has been received (its reply may still be pending). */
  nextRequest(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
    this.waiters.splice(0).forEach((wake) => wake());
    const body = this.requests.at(-1)?.body as { tools?: unknown[] } | undefined;
    const refusal = this.rules?.(body) ?? null;
    if (refusal && 'status' in refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json' });
      return void res.end(refusal.text ?? JSON.stringify(refusal.json ?? {}));
    }
    if (this.handoffText !== null && !body?.tools?.length) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(completion({ content: this.handoffText })));
    }
    this.scriptedSeen += 1;
    const reply = this.replies[Math.min(this.scriptedSeen, this.replies.length) - 1];
    if (!reply) throw new Error('FakeOpenAIServer: no reply scripted');
    if ('reset' in reply) return void req.socket.destroy();
    if ('never' in reply) return;
    if ('stall' in reply) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      return void res.write('{"choices": [');
    }
    const text = reply.text ?? JSON.stringify(reply.json ?? {});
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(text);
  }
}

/** A minimal chat-completions body. */
export function completion(message: Record<string, unknown>, usage?: { prompt_tokens: number; completion_tokens: number }): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', ...message } }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}
