import { DEFAULT_SANDBOX_PATH, sandboxEnvironment } from '../../src/sandbox/environment.js';
import { SandboxRequestError } from '../../src/sandbox/errors.js';

describe('sandboxEnvironment', () => {
  it('is the allow-list plus the request variables', () => {
    const env = sandboxEnvironment({ NODE_ENV: 'test' }, { home: '/tmp/home' });
    expect(env).toMatchObject({ PATH: DEFAULT_SANDBOX_PATH, HOME: '/tmp/home', LANG: 'C.UTF-8', TERM: 'dumb', CI: 'true', TMPDIR: '/tmp', NODE_ENV: 'test' });
    expect(Object.keys(env).sort()).toEqual(
      ['CI', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0', 'HOME', 'LANG', 'LC_ALL', 'NODE_ENV', 'PATH', 'PYTHONDONTWRITEBYTECODE', 'TERM', 'TMPDIR'],
    );
  });

  it.each(['GITHUB_TOKEN', 'npm_token', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY', 'DB_PASSWORD', 'PRIVATE_KEY_PATH', 'GOOGLE_CREDENTIALS'])(
    'refuses %s',
    (name) => {
      expect(() => sandboxEnvironment({ [name]: 'x' }, { home: '/h' })).toThrow(SandboxRequestError);
    },
  );

  it.each(['ghp_abcdef', 'github_pat_11AA', 'sk-proj-123', 'AKIAABCDEFGHIJKLMNOP'])('refuses a token-looking value %s', (value) => {
    expect(() => sandboxEnvironment({ INNOCENT: value }, { home: '/h' })).toThrow(expect.objectContaining({ reason: 'env-refused' }));
  });

  it('refuses malformed names', () => {
    expect(() => sandboxEnvironment({ 'A=B': 'x' }, { home: '/h' })).toThrow(SandboxRequestError);
  });
});
