import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatModel } from '../../src/model/create-chat-model.js';
import { modelConfigOf } from '../../src/model/model-config.js';
import { completion, FakeOpenAIServer } from '../support/fake-openai-server.js';

describe('modelConfigOf', () => {
  it('chooses the profile from the base URL and the model unless one is set', () => {
    const of = (baseURL: string, model: string, profile?: 'generic') => modelConfigOf({ baseURL, apiKey: 'k', model, ...(profile ? { profile } : {}) }).profile.name;
    expect(of('https://api.openai.com/v1', 'gpt-5-mini')).toBe('openai-reasoning');
    expect(of('https://api.openai.com/v1', 'o4-mini')).toBe('openai-reasoning');
    expect(of('https://api.openai.com/v1', 'gpt-4.1')).toBe('openai');
    expect(of('https://r.openai.azure.com', 'my-deployment')).toBe('azure');
    expect(of('https://api.deepseek.com', 'deepseek-chat')).toBe('deepseek');
    expect(of('https://generativelanguage.googleapis.com/v1beta/openai/', 'gemini-3-pro-preview')).toBe('gemini');
    expect(of('https://api.anthropic.com/v1/', 'claude-sonnet-4-5')).toBe('anthropic');
    expect(of('http://127.0.0.1:11434/v1', 'qwen3-coder')).toBe('local');
    expect(of('http://192.168.1.20:8000/v1', 'qwen3-coder')).toBe('local');
    expect(of('https://openrouter.ai/api/v1', 'x/y')).toBe('generic');
    expect(of('https://api.openai.com/v1', 'gpt-5', 'generic')).toBe('generic');
  });
});

describe('createChatModel', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await FakeOpenAIServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds a working model from the config, with its context window', async () => {
    server.script({ status: 200, json: completion({ content: 'pong' }, { prompt_tokens: 1, completion_tokens: 1 }) });
    const model = createChatModel(modelConfigOf({ baseURL: server.baseURL, apiKey: 'none', model: 'local-model' }));
    expect(model.name).toBe('local-model');
    expect(model.contextWindow).toBe(32_768);
    const response = await model.complete({ messages: [{ role: 'user', content: 'ping' }], tools: [] });
    expect(response.message.content).toBe('pong');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer none');
  });

  it('replays a script for GREENFIX_MODEL=scripted:FILE, even a path with spaces', async () => {
    server.script();
    const dir = mkdtempSync(join(tmpdir(), 'greenfix model '));
    try {
      const path = join(dir, 'demo script.json');
      writeFileSync(path, JSON.stringify({ turns: [{ content: 'from the script' }] }));
      const model = createChatModel(modelConfigOf({ baseURL: server.baseURL, apiKey: 'none', model: `scripted:${path}` }));
      expect(model.name).toBe(`scripted:${path}`);
      expect((await model.complete({ messages: [{ role: 'user', content: 'go' }], tools: [] })).message.content).toBe('from the script');
      expect(server.requests).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
