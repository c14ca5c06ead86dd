/**
 * A configuration or input file is unusable. Carries every problem at once, so a person fixes
 * them in one go instead of one per run. The CLI maps this to exit code 2.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    /** Where the problems are, e.g. "environment" or a file path. */
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}
