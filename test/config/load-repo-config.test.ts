import nock from 'nock';
import { Context, ProbotOctokit } from 'probot';
import { loadRepoConfig } from '../../src/config/load-repo-config.js';
import { defaultRepoConfig } from '../../src/config/repo-config.js';
import { examplePayload } from '../triggers/payloads.js';

/**
 * Through the real path: Probot's `context.config('greenfix.yml')` and its config plugin, with the
 * contents API answered by nock.
 */
const CONTENTS = '/repos/Codertocat/Hello-World/contents/.github%2Fgreenfix.yml';

function readConfig(): () => Promise<unknown> {
  const octokit = new ProbotOctokit({ auth: { token: 'test-token' }, retry: { enabled: false }, throttle: { enabled: false } });
  const event = { id: 'delivery-1', name: 'issues', payload: examplePayload('issues', 'labeled') };
  const context = new Context(event as never, octokit, { child: () => ({}) } as never);
  return () => context.config('greenfix.yml');
}

const api = () => nock('https://api.github.com');

describe('loadRepoConfig', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending).toEqual([]);
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });

  it('no file (404), here or in the owner’s `.github` repository → the defaults', async () => {
    api().get(CONTENTS).reply(404, { message: 'Not Found' });
    api().get('/repos/Codertocat/.github/contents/.github%2Fgreenfix.yml').reply(404, { message: 'Not Found' });
    expect(await loadRepoConfig(readConfig())).toEqual({ ok: true, config: defaultRepoConfig() });
  });

  it('a valid file → its config', async () => {
    api().get(CONTENTS).reply(200, 'label: fix-me\nautofix:\n  humans: true\n', { 'content-type': 'text/plain; charset=utf-8' });
    const result = await loadRepoConfig(readConfig());
    expect(result).toMatchObject({ ok: true, config: { label: 'fix-me', autofix: { humans: true, own: true } } });
  });

  it('a YAML syntax error → one problem with the reason and the line', async () => {
    api().get(CONTENTS).reply(200, 'label: agent-fix\nverify: [npm test\n', { 'content-type': 'text/plain; charset=utf-8' });
    const result = await loadRepoConfig(readConfig());
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^`\.github\/greenfix\.yml` is not valid YAML: .*line \d+/);
  });

  it('a list → a problem; a bare string → a problem', async () => {
    api().get(CONTENTS).reply(200, '- label\n- verify\n', { 'content-type': 'text/plain; charset=utf-8' });
    expect(await loadRepoConfig(readConfig())).toEqual({
      ok: false,
      problems: ['`.github/greenfix.yml` must be a mapping of keys (like `label: agent-fix`), not a list'],
    });
    api().get(CONTENTS).reply(200, 'just some text\n', { 'content-type': 'text/plain; charset=utf-8' });
    const text = await loadRepoConfig(readConfig());
    expect(text.ok === false && text.problems).toEqual([expect.stringMatching(/^`\.github\/greenfix\.yml` could not be read as a configuration file: Configuration could not be parsed from https:\/\/api\.github\.com\/.*\(YAML is not an object\)$/)]);
  });

  it('a 500 from GitHub is thrown, not blamed on the file', async () => {
    api().get(CONTENTS).reply(500, { message: 'boom' });
    await expect(loadRepoConfig(readConfig())).rejects.toMatchObject({ status: 500 });
  });

  it('recognises js-yaml errors too, and 404s from a custom reader', async () => {
    const jsYamlError = Object.assign(new Error('ignored text'), {
      name: 'YAMLException',
      reason: 'bad indentation of a mapping entry',
      mark: { line: 2, column: 4 },
    });
    expect(await loadRepoConfig(() => Promise.reject(jsYamlError))).toEqual({
      ok: false,
      problems: ['`.github/greenfix.yml` is not valid YAML: bad indentation of a mapping entry (line 3, column 5)'],
    });
    const notFound = Object.assign(new Error('Not Found'), { status: 404 });
    expect(await loadRepoConfig(() => Promise.reject(notFound))).toEqual({ ok: true, config: defaultRepoConfig() });
    await expect(loadRepoConfig(() => Promise.reject(new TypeError('bug')))).rejects.toBeInstanceOf(TypeError);
  });
});
