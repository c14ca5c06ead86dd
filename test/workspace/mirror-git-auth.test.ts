import { git, GitError } from '../../src/workspace/git.js';
import { assertRemoteUrl, basicAuthValue, gitAuthEnv, redactGitError, redactToken } from '../../src/workspace/git-auth.js';
import { TempDirs } from '../support/temp-dir.js';

const temp = new TempDirs();
afterEach(() => temp.cleanup());
const TOKEN = 'ghs_unitToken42';

describe('gitAuthEnv', () => {
  it('carries the token as an extra header through GIT_* variables only, credential helpers off', async () => {
    const env = gitAuthEnv(TOKEN);
    expect(Object.keys(env).every((k) => k.startsWith('GIT_'))).toBe(true);
    expect(env).toMatchObject({
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`,
    });
    // git() accepts it, and git sees the header as command-line config, in no file.
    const repo = temp.make();
    await git(['init', '-q', '--bare', repo], { cwd: repo });
    const origins = await git(['config', '--show-origin', '--get-all', 'http.extraHeader'], { cwd: repo, env });
    expect(origins.trim()).toBe(`command line:\tAuthorization: ${basicAuthValue(TOKEN)}`);
    expect(await git(['config', '--get-all', 'credential.helper'], { cwd: repo, env })).toBe('\n');
    expect(await git(['config', '--list', '--local'], { cwd: repo })).not.toContain('Authorization');
  });

  it('refuses an empty or multi-line token (no header injection)', () => {
    expect(() => gitAuthEnv('')).toThrow(TypeError);
    expect(() => gitAuthEnv('abc\r\nX-Evil: 1')).toThrow(TypeError);
  });
});

describe('redaction', () => {
  it('removes the raw and the base64 form from text and from a GitError', () => {
    const b64 = basicAuthValue(TOKEN).slice(6);
    expect(redactToken(`a ${TOKEN} b ${b64} c`, TOKEN)).toBe('a *** b *** c');
    const error = redactGitError(new GitError('exit', ['fetch', `x${TOKEN}`], 128, `fatal: ${b64}`), TOKEN);
    expect(error).toBeInstanceOf(GitError);
    expect(error).toMatchObject({ kind: 'exit', exitCode: 128, args: ['fetch', 'x***'], stderr: 'fatal: ***' });
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(b64);
  });
});

describe('assertRemoteUrl', () => {
  it('accepts plain http(s) URLs and refuses credentials, other schemes and non-URLs', () => {
    expect(assertRemoteUrl('https://github.example.com/o/r.git').hostname).toBe('github.example.com');
    expect(() => assertRemoteUrl(`https://x-access-token:${TOKEN}@github.com/o/r.git`)).toThrow('credentials');
    expect(() => assertRemoteUrl('ssh://git@github.com/o/r.git')).toThrow(TypeError);
    expect(() => assertRemoteUrl('ext::sh -c id')).toThrow(TypeError);
    expect(() => assertRemoteUrl('/srv/repo.git')).toThrow(TypeError);
  });
});
