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

/** An eval killed with SIGKILL mid-run continues where it stopped, and pays for no model request twice. */
describe('greenfix eval run, resumed', () => {
  let dir: string;
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    dir = tempDir('greenfix-eval-resume-');
    server = await FakeOpenAIServer.start();
  });
  afterAll(async () => {
    await server.close();
    cleanup(dir);
  });

  it('after kill -9 in the second of two instances: the first is not run again, the second resumes from its journal', async () => {
    const h = historyRepo(join(dir, 'repo'));
    const file = join(dir, 'instances.jsonl');
    writeFileSync(file, [subInstance(h.repo, h.deterministic, 'first'), subInstance(h.repo, h.deterministic, 'second')].map((i) => JSON.stringify(i)).join('\n'));
    // Each instance: the model runs the tests, then gives up: two requests, four in all.
    server.script(turn('run_tests', {}, 1), turn('finish', { summary: 'cannot', gave_up: true }, 2), turn('run_tests', {}, 3), turn('finish', { summary: 'cannot', gave_up: true }, 4));
    const out = join(dir, 'eval');
    const env = { GREENFIX_WORKDIR: join(dir, 'work'), OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'sk-test-0123456789', GREENFIX_MODEL: 'test-model' };
    const args = ['eval', 'run', '--instances', file, '--repo', h.repo, '--out', out, '--test-command', TEST_COMMAND];

    // The third tool call of the process is the second instance's run_tests: killed right after it.
    const crashed = await runCli(args, { ...env, GREENFIX_CRASH_AT: 'after_tool:3' });
    expect(crashed.signal).toBe('SIGKILL');
    expect(server.requests).toHaveLength(3);
    const state = JSON.parse(readFileSync(join(out, 'eval-state.json'), 'utf8')) as { records: Record<string, unknown> };
    expect(Object.keys(state.records)).toEqual(['first']);

    const resumed = await runCli(args, env);
    expect(resumed.stderr).not.toMatch(/greenfix: failed/);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('1 of 2 instances already done');
    // One more request (the second instance's finish): four in all, as an uninterrupted run makes.
    expect(server.requests).toHaveLength(4);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { instance_id: string; status: string; agentStatus: string; requests: number });
    expect(results.map((r) => [r.instance_id, r.status, r.agentStatus, r.requests])).toEqual([
      ['first', 'not_verified', 'gave_up', 2],
      ['second', 'not_verified', 'gave_up', 2],
    ]);
  });
});
