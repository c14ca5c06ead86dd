import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/model/config-error.js';
import { createChatModel } from '../../src/model/create-chat-model.js';
import { DEFAULT_BASE_URL, DEFAULT_MODEL, modelConfigFromEnv } from '../../src/model/model-config.js';
import { completion, FakeOpenAIServer } from './fake-openai-server.js';

describe('modelConfigFromEnv', () => {
  it('defaults to OpenAI and the default model; empty values count as unset', () => {
    const config = modelConfigFromEnv({ OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: ' ', GREENFIX_MODEL: '  ' });
    expect(config).toMatchObject({ baseURL: DEFAULT_BASE_URL, apiKey: 'sk-1', model: DEFAULT_MODEL });
  });

  it('OpenAI without a key is a configuration error up front; a local endpoint or a scripted model needs none', () => {
    expect(() => modelConfigFromEnv({ OPENAI_API_KEY: '' })).toThrow(ConfigError);
    // .env.example spells the default out: the same.
    expect(() => modelConfigFromEnv({ OPENAI_BASE_URL: 'https://api.openai.com/v1', OPENAI_API_KEY: '' })).toThrow(ConfigError);
    try {
      modelConfigFromEnv({});
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^OPENAI_API_KEY: not set, and https:\/\/api\.openai\.com\/v1 needs one/)]);
    }
    expect(modelConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).apiKey).toBe('none');
    expect(modelConfigFromEnv({ GREENFIX_MODEL: 'scripted:/tmp/s.json' }).apiKey).toBe('none');
  });

  it('reads a local endpoint', () => {
    const config = modelConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'sk-1', GREENFIX_MODEL: 'qwen2.5-coder:7b' });
    expect(config).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'sk-1', model: 'qwen2.5-coder:7b' });
  });

  it('lists every problem at once and never echoes the key', () => {
    let error: unknown;
    try {
      modelConfigFromEnv({ OPENAI_BASE_URL: 'ftp://example.com', OPENAI_API_KEY: 'sk-secret with-space', GREENFIX_MODEL: 'two words' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(':')[0])).toEqual(['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'GREENFIX_MODEL']);
    expect((error as Error).message).not.toContain('sk-secret');
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

  it('builds a working model from the config', async () => {
    server.script({ status: 200, json: completion({ content: 'pong' }, { prompt_tokens: 1, completion_tokens: 1 }) });
    const model = createChatModel(modelConfigFromEnv({ OPENAI_BASE_URL: server.baseURL, GREENFIX_MODEL: 'local-model' }));
    expect(model.name).toBe('local-model');
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
      const model = createChatModel(modelConfigFromEnv({ OPENAI_BASE_URL: server.baseURL, GREENFIX_MODEL: `scripted:${path}` }));
      expect(model.name).toBe(`scripted:${path}`);
      expect((await model.complete({ messages: [{ role: 'user', content: 'go' }], tools: [] })).message.content).toBe('from the script');
      expect(server.requests).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
