import { ModelError } from '../../src/model/errors.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { PROFILES, type ProfileName } from '../../src/model/provider-profile.js';
import type { ChatMessage, ToolSpec } from '../../src/model/types.js';
import { completion, FakeOpenAIServer, type Reply } from '../support/fake-openai-server.js';
import { rulesOf, turnOf, type ProviderKind } from './provider-rules.js';

const tools: ToolSpec[] = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const start: ChatMessage[] = [
  { role: 'system', content: 'fix it' },
  { role: 'user', content: 'Task: add subtracts' },
];
const usage = { prompt: 1_000, completion: 50, cached: 600, reasoning: 30 };

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(() => server.enforce(null));
afterAll(() => server.close());

function modelFor(profile: ProfileName, extra: { reasoningEffort?: string; temperature?: number } = {}) {
  return new OpenAIChatModel(
    { baseURL: server.baseURL, apiKey: 'sk-test', model: 'm', timeoutMs: 5_000, retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 }, profile: PROFILES[profile], ...extra },
    { sleep: async () => undefined, random: () => 0, now: () => 0 },
  );
}

/** Three steps as the agent takes them: each reply and its tool result go back in the next request. */
async function threeSteps(profile: ProfileName, kind: ProviderKind, maxTokens?: number): Promise<ChatMessage[]> {
  server.enforce(rulesOf(kind));
  server.script(...[0, 1, 2].map((i) => turnOf(kind, i, 'read_file', { path: `f${i}.sh` }, usage)));
  const model = modelFor(profile, { reasoningEffort: 'low' });
  const messages = [...start];
  for (let turn = 0; turn < 3; turn++) {
    const reply = await model.complete({ messages, tools, turn, ...(maxTokens ? { maxTokens } : {}) });
    messages.push(reply.message);
    for (const call of reply.message.toolCalls ?? []) messages.push({ role: 'tool', toolCallId: call.id, content: `contents of ${JSON.parse(call.arguments).path}` });
  }
  return messages;
}

describe('provider profiles against scripted endpoints that play their documented rules', () => {
  it('OpenAI reasoning models: max_completion_tokens, reasoning_effort, no temperature; cached and reasoning tokens read', async () => {
    await threeSteps('openai-reasoning', 'openai-reasoning', 4096);
    expect(server.requests).toHaveLength(3);
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ max_completion_tokens: 4096, reasoning_effort: 'low' });
    expect(body).not.toHaveProperty('max_tokens');
    expect(Object.keys(body).indexOf('tools')).toBeLessThan(Object.keys(body).indexOf('messages'));
    server.script(turnOf('openai-reasoning', 0, 'read_file', { path: 'a' }, usage));
    const reply = await modelFor('openai-reasoning').complete({ messages: start, tools });
    expect(reply.usage).toEqual({ promptTokens: 1_000, completionTokens: 50, cachedPromptTokens: 600, reasoningTokens: 30 });
  });

  it('a 400 naming a parameter is one sentence with the setting that fixes it, asked once', async () => {
    server.enforce(rulesOf('openai-reasoning'));
    server.script(turnOf('openai-reasoning', 0, 'read_file', { path: 'a' }, usage));
    const error = await modelFor('generic').complete({ messages: start, tools, maxTokens: 4096 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('bad_request');
    expect((error as ModelError).message).toMatch(/refused `max_tokens` as the 'generic' profile sends it; set GREENFIX_MODEL_PROFILE=openai-reasoning/);
    expect(server.requests).toHaveLength(1);
  });

  it('DeepSeek thinking mode: reasoning_content goes back with its tool calls over several steps', async () => {
    const messages = await threeSteps('deepseek', 'deepseek');
    expect(server.requests).toHaveLength(3);
    const last = server.requests[2]!.body as { messages: Array<{ role: string; reasoning_content?: string }> };
    expect(last.messages.filter((m) => m.role === 'assistant').map((m) => m.reasoning_content)).toEqual(['Thinking about step 0: read_file.', 'Thinking about step 1: read_file.']);
    expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(3);
  });

  it('DeepSeek with a profile that drops the reasoning: the refusal names the profile to set', async () => {
    server.enforce(rulesOf('deepseek'));
    server.script(turnOf('deepseek', 0, 'read_file', { path: 'a' }, usage), turnOf('deepseek', 1, 'read_file', { path: 'b' }, usage));
    const model = modelFor('generic');
    const first = await model.complete({ messages: start, tools });
    const next = [...start, first.message, { role: 'tool' as const, toolCallId: first.message.toolCalls![0]!.id, content: 'x' }];
    const error = (await model.complete({ messages: next, tools }).catch((e: unknown) => e)) as ModelError;
    expect(error.message).toMatch(/set GREENFIX_MODEL_PROFILE=deepseek/);
  });

  it("Gemini 3: each call's thought signature goes back; the array-shaped error body is read", async () => {
    await threeSteps('gemini', 'gemini');
    expect(server.requests).toHaveLength(3);
    const body = server.requests[2]!.body as { messages: Array<{ tool_calls?: Array<{ extra_content?: unknown }> }> };
    expect(body.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.extra_content)).toHaveLength(2);

    server.script(turnOf('gemini', 0, 'read_file', { path: 'a' }, usage), turnOf('gemini', 1, 'read_file', { path: 'b' }, usage));
    const model = modelFor('generic');
    const first = await model.complete({ messages: start, tools });
    const next = [...start, first.message, { role: 'tool' as const, toolCallId: first.message.toolCalls![0]!.id, content: 'x' }];
    const error = (await model.complete({ messages: next, tools }).catch((e: unknown) => e)) as ModelError;
    expect(error.message).toMatch(/Function call is missing a thought_signature/);
    expect(error.message).toMatch(/set GREENFIX_MODEL_PROFILE=gemini/);
    expect(error.message).not.toMatch(/no body/);
  });

  it('a local server: object arguments, no ids, no usage, `stop` with tool calls', async () => {
    const messages = await threeSteps('local', 'local', 512);
    const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => c.arguments)).toEqual(['{"path":"f0.sh"}', '{"path":"f1.sh"}', '{"path":"f2.sh"}']);
    expect(new Set(calls.map((c) => c.id)).size).toBe(3);
    expect((server.requests[0]!.body as Record<string, unknown>).max_tokens).toBe(512);
    server.script(turnOf('local', 0, 'read_file', { path: 'a' }, usage));
    const reply = await modelFor('local').complete({ messages: start, tools });
    expect(reply.usage.estimated).toBe(true);
    expect(reply.usage.promptTokens).toBeGreaterThan(0);
    expect(reply.usage.completionTokens).toBeGreaterThan(0);
  });

  it('ids stay unique across the history when a server repeats its own', async () => {
    const same: Reply = { status: 200, json: completion({ content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{}' } }] }) };
    server.script(same, same);
    const model = modelFor('generic');
    const first = await model.complete({ messages: start, tools, turn: 0 });
    const next = [...start, first.message, { role: 'tool' as const, toolCallId: 'call_0', content: 'x' }];
    const second = await model.complete({ messages: next, tools, turn: 1 });
    expect(first.message.toolCalls![0]!.id).toBe('call_0');
    expect(second.message.toolCalls![0]!.id).toBe('call_1_0');
  });

  it('a local model that writes its calls into the text (Hermes/Qwen template) still calls tools', async () => {
    server.script({ status: 200, json: completion({ content: 'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "lib.sh"}}\n</tool_call>' }) });
    const reply = await modelFor('local').complete({ messages: start, tools, turn: 4 });
    expect(reply.message).toEqual({ role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'call_4_0', name: 'read_file', arguments: '{"path":"lib.sh"}' }] });
  });

  it('a reply cut by the token limit before any tool call is marked truncated', async () => {
    server.script({ status: 200, json: { choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: '' } }], usage: { prompt_tokens: 10, completion_tokens: 4096 } } });
    const reply = await modelFor('openai-reasoning').complete({ messages: start, tools, maxTokens: 4096 });
    expect(reply).toMatchObject({ truncated: true, usage: { completionTokens: 4096 } });
  });

  it("Azure: the deployment's URL, api-version and the api-key header", async () => {
    server.script(turnOf('openai-reasoning', 0, 'read_file', { path: 'a' }, usage));
    const model = new OpenAIChatModel(
      { baseURL: `${server.baseURL.replace(/\/v1$/, '')}?api-version=2025-01-01-preview`, apiKey: 'azure-key', model: 'my-gpt5', timeoutMs: 5_000, profile: PROFILES.azure },
      { sleep: async () => undefined, random: () => 0, now: () => 0 },
    );
    await model.complete({ messages: start, tools, maxTokens: 100 });
    const seen = server.requests[0]!;
    expect(seen.url).toBe('/openai/deployments/my-gpt5/chat/completions?api-version=2025-01-01-preview');
    expect(seen.headers['api-key']).toBe('azure-key');
    expect(seen.body).toMatchObject({ max_completion_tokens: 100 });
  });
});
