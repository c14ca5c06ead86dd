import { join } from 'node:path';
import { completion, FakeOpenAIServer, type Reply } from '../support/fake-openai-server.js';
import { BUGGY_REPO, branches, runCli } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';

/** The CLI against a real chat-completions server on loopback. */
describe('greenfix fix (OpenAI-compatible endpoint)', () => {
  let server: FakeOpenAIServer;
  let dir: string;
  const KEY = 'sk-test-do-not-print-0123456789';

  const turn = (name: string, args: unknown, i = 0): Reply => ({
    status: 200,
    json: completion(
      { content: null, tool_calls: [{ id: `call_${name}_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
      { prompt_tokens: 100, completion_tokens: 10 },
    ),
  });
  const fix = (repo: string, ...extra: string[]) =>
    runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--json', ...extra], {
      GREENFIX_WORKDIR: join(dir, 'work'),
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: KEY,
      GREENFIX_MODEL: 'test-model',
    });

  beforeAll(async () => {
    server = await FakeOpenAIServer.start();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    dir = tempDir('greenfix-endpoint-');
  });
  afterEach(() => cleanup(dir));

  it('retries a 429 (honouring retry-after-ms) and then succeeds', async () => {
    const repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    server.script(
      { status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after-ms': '20' } },
      turn('edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }),
      turn('run_tests', {}),
      turn('finish', { summary: 'fixed' }),
    );
    const r = await fix(repo);
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(r.json).toMatchObject({ status: 'verified', steps: 3, tokens: 330 });
    expect(git(repo, 'rev-parse', `${String(r.json?.branch)}^{tree}`)).toBe(r.json?.verifiedTree);
  });

  it('fails at once on 401: exit 3, a message that says what to fix, the key never printed', async () => {
    const repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    server.script({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}` } } });
    const r = await fix(repo);
    expect(r.code).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(r.json).toMatchObject({ status: 'model_error', commit: null });
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(branches(repo)).toEqual([]);
  });

  it('keeps a 60-step session under the context budget without breaking tool-call pairs', async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `line ${i}: ${'x'.repeat(60)}`).join('\n');
    const repo = makeRepo(join(dir, 'repo'), { ...BUGGY_REPO, 'big.txt': big });
    const reads = Array.from({ length: 60 }, (_, i) => turn('read_file', { path: 'big.txt', offset: 1 + i * 40, limit: 200 }, i));
    server.script(...reads, turn('finish', { summary: 'gave up', gave_up: true }));
    // Six whole 200-line reads do not fit in 8,000 tokens even with stubs: the agent asks for a
    // handoff summary (a request without tools), which the server answers off the script.
    server.answerHandoffs('Handoff: reading big.txt in 40-line steps; nothing changed, nothing verified.');
    const budget = 8_000;
    const r = await fix(repo, '--context-tokens', String(budget), '--max-steps', '70');
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'gave_up', steps: 61 });
    const toolRequests = server.requests.filter((q) => ((q.body as { tools?: unknown[] }).tools ?? []).length > 0);
    expect(toolRequests).toHaveLength(61);
    expect(server.requests.length).toBeGreaterThan(61);
    for (const request of server.requests) {
      const body = request.body as { messages: WireMessage[]; tools: unknown[] };
      const chars = JSON.stringify(body.messages).length + JSON.stringify(body.tools ?? []).length;
      expect(chars / 4).toBeLessThanOrEqual(budget * 1.1);
      expectPairsIntact(body.messages);
    }
    const lastBody = server.requests.at(-1)?.body as { messages: WireMessage[] };
    expect(lastBody.messages[0]?.role).toBe('system');
    expect(lastBody.messages[1]?.content).toContain('add subtracts');
  });
});

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ id: string }>;
  tool_call_id?: string;
}

/** Every tool result follows its assistant call, and every call has its result. */
function expectPairsIntact(messages: WireMessage[]): void {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      expect(open.size).toBe(0);
      for (const call of m.tool_calls ?? []) open.add(call.id);
    } else if (m.role === 'tool') {
      expect(open.has(m.tool_call_id ?? '')).toBe(true);
      open.delete(m.tool_call_id ?? '');
    } else {
      expect(open.size).toBe(0);
    }
  }
}
