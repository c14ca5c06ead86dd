import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishTool } from '../../../src/agent/tools/finish.js';
import { runTestsTool } from '../../../src/agent/tools/run-tests.js';
import { FAKE_SECRETS as S } from '../../support/fake-secrets.js';
import { makeFixture, type Fixture } from './helpers/context.js';

describe('finish refuses a verified tree that adds a credential', () => {
  let fx: Fixture;
  beforeEach(async () => (fx = await makeFixture({ 'config.js': 'module.exports = {};\n', 'README.md': '# x\n' })));
  afterEach(() => fx.cleanup());

  const greenThenFinish = async () => {
    const green = await runTestsTool.execute({}, fx.ctx({ verifyCommand: 'true' }));
    expect(green.verified).toBeDefined();
    return finishTool.execute({ summary: 'fixed it' }, fx.ctx({ verified: green.verified! }));
  };

  it('names the file and line (never the value), and accepts once the model removed it', async () => {
    writeFileSync(join(fx.root, 'config.js'), `module.exports = {\n  region: 'eu-west-1',\n  token: '${S.githubClassicToken}',\n};\n`);
    writeFileSync(join(fx.root, 'id_rsa'), `${S.pemHeader}\n${S.pemBody}\n`);
    const refused = await greenThenFinish();
    expect(refused.ok).toBe(false);
    expect(refused.finish).toBeUndefined();
    expect(refused.output).toContain('config.js line 3: a GitHub token');
    expect(refused.output).toContain('id_rsa line 1: a private key');
    expect(refused.output).not.toContain(S.githubClassicToken);
    expect(refused.output).toMatch(/run run_tests, then finish/);

    writeFileSync(join(fx.root, 'config.js'), `module.exports = {\n  region: 'eu-west-1',\n  token: process.env.GITHUB_TOKEN,\n};\n`);
    writeFileSync(join(fx.root, 'id_rsa'), 'generated at deploy time\n');
    expect(await greenThenFinish()).toMatchObject({ ok: true, finish: { gaveUp: false } });
  });

  it('lets a documented placeholder through (the example key id AWS documents)', async () => {
    writeFileSync(join(fx.root, 'README.md'), '# x\n\nexample: aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n');
    expect(await greenThenFinish()).toMatchObject({ ok: true });
  });
});
