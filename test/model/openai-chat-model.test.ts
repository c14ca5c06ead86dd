import { ModelError } from '../../src/model/errors.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import type { RetryPolicy } from '../../src/model/retry-policy.js';
import type { ChatMessage, ToolSpec } from '../../src/model/types.js';
import { completion, FakeOpenAIServer } from '../support/fake-openai-server.js';

const API_KEY = 'sk-test-SECRET-0123456789';
const policy: RetryPolicy = { maxRetries: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 };
const ok = { status: 200, json: completion({ content: 'done' }, { prompt_tokens: 3, completion_tokens: 1 }) };
const hello: ChatMessage[] = [{ role: 'user', content: 'hi' }];

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await FakeOpenAIServer.start();
});
afterAll(async () => {
  await server.close();
});

/** A model pointed at the fake server whose sleeps are recorded, not waited. */
function makeModel(options: { timeoutMs?: number; retry?: RetryPolicy; temperature?: number } = {}) {
  const delays: number[] = [];
  const model = new OpenAIChatModel(
    { baseURL: server.baseURL, apiKey: API_KEY, model: 'test-model', timeoutMs: options.timeoutMs ?? 5_000, retry: options.retry ?? policy, ...(options.temperature === undefined ? {} : { temperature: options.temperature }) },
    { sleep: async (ms) => void delays.push(ms), random: () => 0.5, now: () => Date.parse('2026-01-01T00:00:00Z') },
  );
  return { model, delays };
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('OpenAIChatModel wire format', () => {
  it('converts messages and tools to chat completions and the answer back, tool calls and usage included', async () => {
    server.script({
      status: 200,
      json: completion(
        { content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.ts"}' } }] },
        { prompt_tokens: 120, completion_tokens: 17 },
      ),
    });
    const tools: ToolSpec[] = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const messages: ChatMessage[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: 'looking', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: '1 │ x' },
      { role: 'assistant', content: 'plain answer' },
    ];
    const { model } = makeModel({ temperature: 0.2 });

    const response = await model.complete({ messages, tools });

    expect(server.requests).toHaveLength(1);
    const seen = server.requests[0]!;
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen.body).toEqual({
      model: 'test-model',
      temperature: 0.2,
      tool_choice: 'auto',
      tools: [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: tools[0]!.parameters } }],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'fix it' },
        { role: 'assistant', content: 'looking', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '1 │ x' },
        { role: 'assistant', content: 'plain answer' },
      ],
    });
    expect(response).toEqual({
      message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_9', name: 'read_file', arguments: '{"path":"b.ts"}' }] },
      usage: { promptTokens: 120, completionTokens: 17 },
    });
  });

  it('sends neither tools nor tool_choice nor temperature when there are none, and estimates missing usage, marked as estimated', async () => {
    server.script({ status: 200, json: completion({ content: 'hello' }) });
    const response = await makeModel().model.complete({ messages: hello, tools: [] });
    expect(server.requests[0]!.body).toEqual({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] });
    // No usage: the estimate (≈ chars/4 + per-message overhead) counts, never zero.
    expect(response).toEqual({ message: { role: 'assistant', content: 'hello' }, usage: { promptTokens: 5, completionTokens: 6, estimated: true } });
  });
});

describe('OpenAIChatModel retries', () => {
  it('waits what Retry-After asks (seconds) after a 429, then succeeds', async () => {
    server.script({ status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } }, ok);
    const { model, delays } = makeModel();
    const response = await model.complete({ messages: hello, tools: [] });
    expect(response.message.content).toBe('done');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2_000]);
  });

  it('honours retry-after-ms and an HTTP-date Retry-After, capped at the policy maximum', async () => {
    server.script(
      { status: 429, headers: { 'retry-after-ms': '250' } },
      { status: 503, headers: { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' } },
      { status: 503, headers: { 'retry-after': '3600' } },
      ok,
    );
    const { model, delays } = makeModel();
    await model.complete({ messages: hello, tools: [] });
    expect(delays).toEqual([250, 7_000, 60_000]);
  });

  it('retries 500, 500 with exponential backoff and full jitter, then succeeds', async () => {
    server.script({ status: 500, json: { error: { message: 'boom' } } }, { status: 500 }, ok);
    const { model, delays } = makeModel();
    const response = await model.complete({ messages: hello, tools: [] });
    expect(response.usage).toEqual({ promptTokens: 3, completionTokens: 1 });
    expect(server.requests).toHaveLength(3);
    // random() = 0.5 of a ceiling that doubles: 1000, 2000.
    expect(delays).toEqual([500, 1_000]);
  });

  it('retries after the server resets the connection, saying so when it runs out', async () => {
    server.script({ reset: true });
    const exhausted = await failure(makeModel({ retry: { ...policy, maxRetries: 1 } }).model.complete({ messages: hello, tools: [] }));
    expect(exhausted.kind).toBe('transient');
    expect(exhausted.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: .*\((ECONNRESET|UND_ERR_SOCKET)\)/);
    server.script({ reset: true }, ok);
    const { model, delays } = makeModel();
    const response = await model.complete({ messages: hello, tools: [] });
    expect(response.message.content).toBe('done');
    expect(server.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('retries after a request timeout, saying so when it runs out', async () => {
    server.script({ never: true });
    const exhausted = await failure(makeModel({ timeoutMs: 200, retry: { ...policy, maxRetries: 0 } }).model.complete({ messages: hello, tools: [] }));
    expect(exhausted.kind).toBe('transient');
    expect(exhausted.message).toMatch(/after 1 attempts: no answer from .* within 200 ms/);
    server.script({ never: true }, ok);
    // Long enough that the answer after the retry arrives in time on a machine busy with the whole suite.
    const { model, delays } = makeModel({ timeoutMs: 1_000 });
    const response = await model.complete({ messages: hello, tools: [] });
    expect(response.message.content).toBe('done');
    expect(server.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('retries when the body stalls half-way, which the SDK timeout alone would not catch', async () => {
    server.script({ stall: true }, ok);
    // Long enough that the answer after the retry arrives in time on a machine busy with the whole suite.
    const { model, delays } = makeModel({ timeoutMs: 1_000 });
    const response = await model.complete({ messages: hello, tools: [] });
    expect(response.message.content).toBe('done');
    expect(server.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('gives up with kind transient when the retries run out', async () => {
    server.script({ status: 503, json: { error: { message: 'overloaded' } } });
    const { model, delays } = makeModel({ retry: { ...policy, maxRetries: 2 } });
    const error = await failure(model.complete({ messages: hello, tools: [] }));
    expect(error.kind).toBe('transient');
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/after 3 attempts.*503.*overloaded/);
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([500, 1_000]);
  });

  it('stops retrying when the caller aborts during a wait', async () => {
    server.script({ status: 500 });
    const controller = new AbortController();
    const model = new OpenAIChatModel(
      { baseURL: server.baseURL, apiKey: API_KEY, model: 'test-model', timeoutMs: 5_000, retry: policy },
      { sleep: async () => controller.abort(new Error('cancelled by user')), random: () => 0, now: Date.now },
    );
    await expect(model.complete({ messages: hello, tools: [], signal: controller.signal })).rejects.toThrow('cancelled by user');
    expect(server.requests).toHaveLength(1);
  });

  it('an abort during the request ends it at once, without a retry', async () => {
    server.script({ never: true });
    const controller = new AbortController();
    const { model, delays } = makeModel();
    const arrived = server.nextRequest();
    const pending = model.complete({ messages: hello, tools: [], signal: controller.signal });
    await arrived;
    controller.abort(new Error('job cancelled'));
    await expect(pending).rejects.toThrow('job cancelled');
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });
});

describe('OpenAIChatModel permanent failures', () => {
  it('401 is auth, not retried, names OPENAI_API_KEY and never the key, even when the server echoes it', async () => {
    server.script({ status: 401, json: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
    const { model, delays } = makeModel();
    const error = await failure(model.complete({ messages: hello, tools: [] }));
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).not.toContain(API_KEY);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('404 is not_found and names the model and OPENAI_BASE_URL', async () => {
    server.script({ status: 404, json: { error: { message: 'model not found' } } });
    const error = await failure(makeModel().model.complete({ messages: hello, tools: [] }));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain("'test-model'");
    expect(error.message).toContain('OPENAI_BASE_URL');
    expect(server.requests).toHaveLength(1);
  });

  it('400 and 422 are bad_request with the server detail, key removed', async () => {
    for (const status of [400, 422]) {
      server.script({ status, json: { error: { message: `tools[0] is invalid (key ${API_KEY})` } } });
      const error = await failure(makeModel().model.complete({ messages: hello, tools: [] }));
      expect(error.kind).toBe('bad_request');
      expect(error.message).toContain('tools[0] is invalid');
      expect(error.message).not.toContain(API_KEY);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('a garbage JSON body is invalid_response, not retried', async () => {
    server.script({ status: 200, text: '{"choices": [oops' });
    const error = await failure(makeModel().model.complete({ messages: hello, tools: [] }));
    expect(error.kind).toBe('invalid_response');
    expect(server.requests).toHaveLength(1);
  });

  it('a body without choices or without a message is invalid_response', async () => {
    for (const json of [{ object: 'chat.completion' }, { choices: [] }, { choices: [{ index: 0 }] }]) {
      server.script({ status: 200, json });
      const error = await failure(makeModel().model.complete({ messages: hello, tools: [] }));
      expect(error.kind).toBe('invalid_response');
    }
  });
});

describe('OpenAIChatModel usage and cost limits', () => {
  it('reads the cached part of the prompt and sends max_tokens only when the request sets it', async () => {
    const body = completion({ content: 'ok' }, { prompt_tokens: 1000, completion_tokens: 20 }) as Record<string, unknown>;
    (body.usage as Record<string, unknown>).prompt_tokens_details = { cached_tokens: 600 };
    server.script({ status: 200, json: body });
    const response = await makeModel().model.complete({ messages: hello, tools: [], maxTokens: 4096 });
    expect(response.usage).toEqual({ promptTokens: 1000, completionTokens: 20, cachedPromptTokens: 600 });
    expect(server.requests[0]!.body).toEqual({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4096 });
  });
});
