import nock from 'nock';
import { loadRepoConfig } from '../../src/config/load-repo-config.js';
import { defaultRepoConfig } from '../../src/config/repo-config.js';
import { CONFIG_CONTENTS_PATH as CONTENTS, probotConfigReader as readConfig, serveConfigFile } from './probot-config-reader.js';

/** Through the real path: Probot's `context.config('greenfix.yml')`, the contents API answered by nock. */
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
    serveConfigFile('label: fix-me\nautofix:\n  humans: true\n');
    const result = await loadRepoConfig(readConfig());
    expect(result).toMatchObject({ ok: true, config: { label: 'fix-me', autofix: { humans: true, own: true } } });
  });

  it('a YAML syntax error → one problem with the reason and the line', async () => {
    serveConfigFile('label: agent-fix\nverify: [npm test\n');
    const result = await loadRepoConfig(readConfig());
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^`\.github\/greenfix\.yml` is not valid YAML: .*line \d+/);
  });

  it('a list → a problem; a bare string → a problem', async () => {
    serveConfigFile('- label\n- verify\n');
    expect(await loadRepoConfig(readConfig())).toEqual({
      ok: false,
      problems: ['`.github/greenfix.yml` must be a mapping of keys (like `label: agent-fix`), not a list'],
    });
    serveConfigFile('just some text\n');
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
