import { join } from 'node:path';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { rulesOf, turnOf, type ProviderKind } from '../model/provider-rules.js';
import { BUGGY_REPO, runCli } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/**
 * The same fix through the built CLI against each profile's scripted endpoint, which refuses what
 * its provider refuses (test/model/provider-rules.ts), with and without a cost budget. Each reply
 * reports 100,000 prompt tokens (80,000 cached) and 4,500 output tokens (reasoning included): at
 * $1.25 / $0.125 / $10 per million that is $0.025 + $0.01 + $0.045 = $0.08 a call, $0.24 a fix.
 */
describe('greenfix fix against each provider profile', () => {
  let server: FakeOpenAIServer;
  let dir: string;
  const usage = { prompt: 100_000, completion: 4_500, cached: 80_000, reasoning: 3_000 };
  const calls: Array<[string, Record<string, unknown>]> = [
    ['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }],
    ['run_tests', {}],
    ['finish', { summary: 'add adds' }],
  ];
  const cases: Array<[ProviderKind, string]> = [
    ['openai-reasoning', 'gpt-5'],
    ['deepseek', 'deepseek-reasoner'],
    ['gemini', 'gemini-3-pro-preview'],
    ['local', 'qwen3-coder'],
  ];

  beforeAll(async () => {
    server = await FakeOpenAIServer.start();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    dir = tempDir('greenfix-profiles-');
  });
  afterEach(() => {
    server.enforce(null);
    cleanup(dir);
  });

  const fix = (kind: ProviderKind, model: string, ...extra: string[]) => {
    const repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    server.enforce(rulesOf(kind));
    server.script(...calls.map(([name, args], i) => turnOf(kind, i, name, args, usage)));
    const run = runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--json', ...extra], {
      GREENFIX_WORKDIR: join(dir, 'work'),
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-test',
      GREENFIX_MODEL: model,
      GREENFIX_MODEL_PROFILE: kind,
      GREENFIX_PRICES: JSON.stringify({ [model]: { input: 1.25, cached_input: 0.125, output: 10 } }),
    });
    return run.then((r) => ({ ...r, repo }));
  };

  it.each(cases)('%s: the fix is verified and committed, its cost the provider usage to the cent, with and without a cost budget', async (kind, model) => {
    for (const budget of [[], ['--max-cost', '1']]) {
      const r = await fix(kind, model, ...budget);
      expect(r.stderr).not.toMatch(/refused/);
      expect(r.code).toBe(0);
      expect(r.json).toMatchObject({ status: 'verified', steps: 3 });
      expect(git(r.repo, 'rev-parse', `${String(r.json?.branch)}^{tree}`)).toBe(r.json?.verifiedTree);
      const requests = server.requests.map((q) => q.body as Record<string, unknown>);
      expect(requests).toHaveLength(3);
      if (budget.length > 0) expect(requests[0]![kind === 'openai-reasoning' ? 'max_completion_tokens' : 'max_tokens']).toBe(4096);
      if (kind === 'local') {
        // No usage from a local server: the estimate counts, and the report says so.
        expect(r.json).toMatchObject({ tokensEstimated: true, cachedPromptTokens: 0 });
        expect(String(r.json?.cost)).toMatch(/estimated/);
        expect(r.json?.tokens).toBeGreaterThan(0);
      } else {
        expect(r.json).toMatchObject({ tokens: 3 * 104_500, cachedPromptTokens: 240_000, tokensEstimated: false, costUsd: 0.24, cost: '$0.24' });
        expect(r.stderr).toContain("80% of it from the provider's cache");
      }
      cleanup(join(dir, 'repo'));
      cleanup(join(dir, 'work'));
    }
  });

  it('a reasoning model on a loopback address (so the local profile) under a cost budget: one sentence naming the setting, asked once, exit 3', async () => {
    const repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    server.enforce(rulesOf('openai-reasoning'));
    server.script(turnOf('openai-reasoning', 0, 'finish', { summary: 'x' }, usage));
    const generic = await runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--json', '--max-cost', '1'], {
      GREENFIX_WORKDIR: join(dir, 'work'),
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'sk-test',
      GREENFIX_MODEL: 'gpt-5',
    });
    expect(generic.code).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(generic.stderr).toMatch(/refused `max_tokens` as the 'local' profile sends it; set GREENFIX_MODEL_PROFILE=openai-reasoning/);
  });
});
