import { EnvConfigError } from '../../src/config/env-config-error.js';
import { loadEnvConfig } from '../../src/config/env-config.js';
import { MODEL_PROFILE_NAMES } from '../../src/config/model-profile-names.js';
import { DEFAULT_BASE_URL, DEFAULT_MODEL, missingKeyProblem, modelSettingsFromEnv } from '../../src/config/model-settings.js';
import { PROFILE_NAMES } from '../../src/model/provider-profile.js';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvConfigError);
    return (error as EnvConfigError).problems;
  }
  throw new Error('expected an EnvConfigError');
}

describe('modelSettingsFromEnv', () => {
  it('defaults to OpenAI and the default model; empty values count as unset', () => {
    expect(modelSettingsFromEnv({ OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: ' ', GREENFIX_MODEL: '  ' })).toEqual({ baseURL: DEFAULT_BASE_URL, apiKey: 'sk-1', model: DEFAULT_MODEL });
  });

  it('OpenAI without a key is a configuration error up front; a local endpoint or a scripted model needs none', () => {
    expect(problemsOf(() => modelSettingsFromEnv({ OPENAI_API_KEY: '' }))).toEqual([expect.stringMatching(/^OPENAI_API_KEY: not set, and https:\/\/api\.openai\.com\/v1 needs one/)]);
    // .env.example spells the default out: the same.
    expect(() => modelSettingsFromEnv({ OPENAI_BASE_URL: 'https://api.openai.com/v1' })).toThrow(EnvConfigError);
    expect(modelSettingsFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).apiKey).toBeUndefined();
    expect(modelSettingsFromEnv({ GREENFIX_MODEL: 'scripted:/tmp/s.json' }).apiKey).toBeUndefined();
  });

  it('reads the profile, the reasoning effort and the price source; a --model flag replaces GREENFIX_MODEL', () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', GREENFIX_MODEL: 'qwen', GREENFIX_MODEL_PROFILE: 'local', GREENFIX_REASONING_EFFORT: 'low', GREENFIX_PRICES: '{}' };
    expect(modelSettingsFromEnv(env, 'qwen3-coder')).toEqual({ baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3-coder', profile: 'local', reasoningEffort: 'low', prices: '{}' });
  });

  it('lists every problem at once, names the allowed profiles and never echoes the key', () => {
    const problems = problemsOf(() =>
      modelSettingsFromEnv({ OPENAI_BASE_URL: 'ftp://example.com', OPENAI_API_KEY: 'sk-secret with-space', GREENFIX_MODEL: 'two words', GREENFIX_MODEL_PROFILE: 'gpt5' }),
    );
    expect(problems.map((p) => p.split(':')[0])).toEqual(['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'GREENFIX_MODEL', 'GREENFIX_MODEL_PROFILE']);
    expect(problems[3]).toContain('`openai-reasoning`');
    expect(problems.join('\n')).not.toContain('sk-secret');
  });

  it('offers exactly the profiles the model layer has', () => {
    expect([...MODEL_PROFILE_NAMES]).toEqual([...PROFILE_NAMES]);
  });

  it('serve reads the same settings once, in its own config', () => {
    const app = { APP_ID: '1', PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----', WEBHOOK_SECRET: 's' };
    const config = loadEnvConfig({ ...app, OPENAI_BASE_URL: 'https://api.deepseek.com', OPENAI_API_KEY: 'sk-1', GREENFIX_MODEL: 'deepseek-chat', GREENFIX_MODEL_PROFILE: 'deepseek' }, { cwd: '/tmp' });
    expect(config.model).toEqual({ baseURL: 'https://api.deepseek.com', apiKey: 'sk-1', model: 'deepseek-chat', profile: 'deepseek' });
    expect(missingKeyProblem(loadEnvConfig(app, { cwd: '/tmp' }).model)).toMatch(/^OPENAI_API_KEY: not set/);
  });
});
