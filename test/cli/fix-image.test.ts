import { join } from 'node:path';
import { git } from '../support/git.js';
import { makeRepo } from '../support/make-repo.js';
import { startRegistry, type RegistryServer } from '../support/registry-server.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { IMAGE_TOOL, pushImage, toolImageLayer } from '../support/test-images.js';
import { branches, runCli, writeScript } from './helpers.js';

/** `greenfix fix` on a repository whose test tool exists only in its environment image. */
describe('greenfix fix in an environment image (built CLI, real registry on loopback)', () => {
  let registry: RegistryServer;
  let reference: string;
  let dir: string;
  beforeAll(async () => {
    registry = await startRegistry();
    reference = pushImage(registry.host, 'acme/cli-env', [toolImageLayer()]);
  });
  afterAll(async () => registry?.stop());
  beforeEach(() => (dir = tempDir('greenfix-image-cli-')));
  afterEach(() => cleanup(dir));

  const fix = (repo: string, env: Record<string, string> = {}) => {
    const script = writeScript(dir, [[['edit_file', { path: 'answer.txt', old: '41', new: '42' }]], [['run_tests', {}]], [['finish', { summary: 'the answer is 42' }]]]);
    return runCli(['fix', '--repo', repo, '--task', 'the answer is wrong', '--verify', IMAGE_TOOL, '--model', `scripted:${script}`, '--json'], { GREENFIX_WORKDIR: join(dir, 'work'), ...env });
  };

  it('fixes it with the operator\'s default image, and the JSON names the pinned digest', async () => {
    const repo = makeRepo(join(dir, 'repo'), { 'answer.txt': '41\n' });
    const r = await fix(repo, { GREENFIX_DEFAULT_IMAGE: reference });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'verified', environment: { image: reference, digest: expect.stringMatching(/^sha256:[a-f0-9]{64}$/) } });
    expect(r.stderr).toContain(`greenfix: environment: ${reference} (`);
    expect(r.stderr).toContain('from GREENFIX_DEFAULT_IMAGE, pulled and unpacked');
    expect(git(repo, 'show', `${String(r.json?.branch)}:answer.txt`)).toBe('42');
  });

  it('without an image, the host has no such tool: nothing verifies', async () => {
    const repo = makeRepo(join(dir, 'repo'), { 'answer.txt': '41\n' });
    const r = await fix(repo);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ environment: null, verifiedTree: null });
    expect(branches(repo)).toEqual([]);
  });
});
