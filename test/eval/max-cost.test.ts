import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/helpers.js';
import { completion, FakeOpenAIServer, type Reply } from '../support/fake-openai-server.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { historyRepo, subInstance, TEST_COMMAND } from './history-repo.js';

const turn = (name: string, args: unknown, i: number): Reply => ({
  status: 200,
  json: completion({ content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, { prompt_tokens: 1000, completion_tokens: 10 }),
});

/** `--max-cost` holds the whole eval: no instance may spend past what is left. */
describe('greenfix eval run --max-cost', () => {
  let dir: string;
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    dir = tempDir('greenfix-eval-cost-');
    server = await FakeOpenAIServer.start();
  });
  afterAll(async () => {
    await server.close();
    cleanup(dir);
  });

  it('--max-cost is the whole eval\'s budget: no instance is given more than what is left; an unpriced model cannot be held to one', async () => {
    const h = historyRepo(join(dir, 'repo-cost'));
    const file = join(dir, 'cost.jsonl');
    writeFileSync(file, [subInstance(h.repo, h.deterministic, 'one'), subInstance(h.repo, h.deterministic, 'two')].map((i) => JSON.stringify(i)).join('\n'));
    server.script(turn('finish', { summary: 'cannot', gave_up: true }, 1));
    const env = { GREENFIX_WORKDIR: join(dir, 'work'), OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-test-0123456789', GREENFIX_MODEL: 'test-model' };
    const args = (out: string) => ['eval', 'run', '--instances', file, '--repo', h.repo, '--out', join(dir, out), '--test-command', TEST_COMMAND, '--max-cost', '0.002'];

    const unpriced = await runCli(args('unpriced'), env);
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toContain('--max-cost: the price of test-model is unknown');

    // $1 per million tokens: a request's worst case (its prompt and a full reply) is over $0.002 / 1.
    const priced = await runCli(args('priced'), { ...env, GREENFIX_PRICES: '{ "test-model": { "input": 1, "output": 1 } }' });
    expect(priced.stderr).not.toMatch(/greenfix: failed/);
    expect(priced.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    const results = readFileSync(join(dir, 'priced', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { agentStatus: string; costUsd: number });
    expect(results.map((r) => [r.agentStatus, r.costUsd])).toEqual([['budget_exhausted', 0], ['budget_exhausted', 0]]);
  });
});
