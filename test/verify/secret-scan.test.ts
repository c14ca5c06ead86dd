import { describeSecrets, entropy, scanAddedLines, secretKinds } from '../../src/verify/secret-scan.js';
import { FAKE_SECRETS as S } from '../support/fake-secrets.js';

describe('secretKinds', () => {
  it.each([
    ['an AWS access key id', `aws_access_key_id = ${S.awsAccessKeyId}`],
    ['a GitHub token', `const token = "${S.githubClassicToken}";`],
    ['a GitHub token', `GH_TOKEN=${S.githubServerToken}`],
    ['a GitHub token', `  token: ${S.githubFineGrainedToken}`],
    ['a private key', S.pemHeader],
    ['a JSON Web Token', `Authorization: Bearer ${S.jwt}`],
  ])('finds %s', (kind, line) => {
    expect(secretKinds(line)).toEqual([kind]);
  });

  it.each([
    [`OPENAI_API_KEY=${S.randomValue}`, 'OPENAI_API_KEY'],
    [`  "client_secret": "${S.randomValue}",`, 'client_secret'],
    [`db.password = '${S.randomValue}'`, 'db.password'],
  ])('finds a random-looking value assigned to a secret-ish name: %s', (line, name) => {
    expect(secretKinds(line)).toEqual([`a random-looking value assigned to "${name}"`]);
  });

  it.each([
    'const token = process.env.GITHUB_TOKEN;',
    'API_KEY=${API_KEY}',
    'password: "correcthorsebatterystaple"',
    'api_key = "your-api-key-here-1234"',
    'SECRET_KEY=xxxxxxxxxxxxxxxxxxxxxxxx',
    'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
    'const tokenizer = new Tokenizer(options);',
    'sha = "3f786850e387550fdab836ed7e6dc881de23001b"',
    'function getAuthHeader(token: string) { return `Bearer ${token}`; }',
  ])('leaves an ordinary line alone: %s', (line) => {
    expect(secretKinds(line)).toEqual([]);
  });

  it('measures entropy in bits per character', () => {
    expect(entropy('aaaa')).toBe(0);
    expect(entropy('abcd')).toBe(2);
  });
});

describe('scanAddedLines and describeSecrets', () => {
  it('names the file, the line and the kind, never the value', () => {
    const found = scanAddedLines([
      { path: 'src/a.ts', line: 3, text: 'export const x = 1;' },
      { path: '.env.example', line: 7, text: `GITHUB_TOKEN=${S.githubClassicToken}` },
      { path: 'keys/id_rsa', line: 1, text: S.pemHeader },
    ]);
    expect(found).toEqual([
      { path: '.env.example', line: 7, kind: 'a GitHub token' },
      { path: 'keys/id_rsa', line: 1, kind: 'a private key' },
    ]);
    const text = describeSecrets(found);
    expect(text).toBe('.env.example line 7: a GitHub token\nkeys/id_rsa line 1: a private key');
    expect(text).not.toContain(S.githubClassicToken);
  });

  it('names ten and counts the rest', () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({ path: 'k', line: i + 1, text: S.jwt }));
    expect(describeSecrets(scanAddedLines(lines)).split('\n')).toHaveLength(11);
    expect(describeSecrets(scanAddedLines(lines))).toMatch(/… and 2 more$/);
  });
});
