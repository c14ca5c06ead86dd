import nock from 'nock';
import { CONFIG_ERRORS_MARKER, renderConfigProblems } from '../../src/config/render-config-problems.js';
import { loadRepoConfig } from '../../src/config/load-repo-config.js';
import { probotConfigReader, serveConfigFile } from './probot-config-reader.js';

describe('renderConfigProblems', () => {
  afterAll(() => {
    nock.restore();
  });

  it('lists every problem under the hidden marker', () => {
    const body = renderConfigProblems(['unknown key `lable` (did you mean `label`?)', 'autofix.max_attempts: must be at most 10']);
    expect(body.startsWith(CONFIG_ERRORS_MARKER)).toBe(true);
    expect(CONFIG_ERRORS_MARKER).toBe('<!-- greenfix:config-errors -->');
    expect(body).toContain('2 problems');
    expect(body).toContain('\n- unknown key `lable` (did you mean `label`?)\n- autofix.max_attempts: must be at most 10\n');
    expect(renderConfigProblems(['x'])).toContain('one problem');
  });

  it('its example is a valid config (read through Probot from a nock-served file)', async () => {
    const body = renderConfigProblems(['x']);
    const example = /```yaml\n([\s\S]*?)```/.exec(body)?.[1] ?? '';
    expect(example).toContain('label:');
    nock.disableNetConnect();
    try {
      serveConfigFile(example);
      const result = await loadRepoConfig(probotConfigReader());
      expect(result).toMatchObject({ ok: true, config: { label: 'agent-fix', verify: 'npm test', autofix: { max_attempts: 3 } } });
    } finally {
      nock.cleanAll();
      nock.enableNetConnect();
    }
  });
});
