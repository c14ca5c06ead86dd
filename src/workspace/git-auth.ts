import { GitError } from './git.js';

/** The Basic credentials GitHub accepts for an installation token over git's smart HTTP. */
export function basicAuthValue(token: string): string {
  return `Basic ${Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')}`;
}

/**
 * The environment that authenticates ONE git process. The token goes in as an
 * `http.extraHeader` through GIT_CONFIG_* variables, so it is never in argv (visible in `ps`),
 * never in `.git/config` or a remote URL (both readable from the sandbox), and gone when that
 * process exits. Credential helpers are switched off: a wrong token fails instead of falling back
 * to whatever the machine's helper knows, and nothing gets stored. Only http(s) transports are
 * allowed, so a crafted clone URL (`ext::…`) cannot run a command.
 */
export function gitAuthEnv(token: string): Record<string, string> {
  if (token.length === 0 || /[\r\n]/.test(token)) throw new TypeError('gitAuthEnv: empty or multi-line token');
  return {
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: 'https:http',
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: ${basicAuthValue(token)}`,
    GIT_CONFIG_KEY_1: 'credential.helper',
    GIT_CONFIG_VALUE_1: '',
  };
}

/** Every form in which the token could show up in git's output. */
function secretForms(token: string): string[] {
  return [basicAuthValue(token).slice('Basic '.length), token].filter((s) => s.length > 0);
}

/** `text` with the token (raw or base64-encoded) replaced by `***`. */
export function redactToken(text: string, token: string): string {
  return secretForms(token).reduce((out, secret) => out.split(secret).join('***'), text);
}

/** The same GitError with the token removed from its arguments, stderr and message. */
export function redactGitError(error: GitError, token: string): GitError {
  return new GitError(
    error.kind,
    error.args.map((a) => redactToken(a, token)),
    error.exitCode,
    redactToken(error.stderr, token),
  );
}

/** The URL must be plain http(s) with no credentials in it: the token travels in the header only. */
export function assertRemoteUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('remote URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TypeError(`remote URL must be http(s), got ${parsed.protocol}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TypeError('remote URL must not carry credentials');
  }
  return parsed;
}
