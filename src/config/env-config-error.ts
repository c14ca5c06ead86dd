/** The environment is unusable; `problems` lists every reason at once, one sentence each, no values. */
export class EnvConfigError extends Error {
  readonly kind = 'env_config';

  constructor(readonly problems: string[]) {
    super(`invalid environment:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    this.name = 'EnvConfigError';
  }
}
