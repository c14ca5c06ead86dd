/**
 * Real-looking credentials for the secret scan's tests, assembled at run time so that no literal
 * token sits in this repository (a host's own push protection would refuse it). None is valid.
 */
const join = (...parts: string[]): string => parts.join('');

export const FAKE_SECRETS = {
  awsAccessKeyId: join('AKIA', 'Q3EGRMX5ZLP7TNW4'),
  githubClassicToken: join('gh', 'p_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'),
  githubServerToken: join('gh', 's_', '16C7e42F292c6912E7710c838347Ae178B4a'),
  githubFineGrainedToken: join('github', '_pat_', '11ABCDEFG0aBcDeFgHiJkL_', 'mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567'),
  pemHeader: join('-----BEGIN ', 'RSA PRIVATE', ' KEY-----'),
  pemBody: 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi6gNNdNrvUJ2wsR0Y7SpXyHPqD',
  jwt: join('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'),
  /** A random-looking value for `API_KEY=` and friends. */
  randomValue: join('9fK2xQ7', 'pLm4Zt8Rv', 'B1nW6yC3'),
} as const;
