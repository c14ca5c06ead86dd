import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes.js';

export type Flags = Record<string, string | boolean | undefined>;

/**
 * A subcommand's `--flags` (no positionals, unknown flags refused): every problem becomes a
 * UsageError (exit 2) followed by the command's usage.
 */
export function parseFlags(argv: string[], options: NonNullable<ParseArgsConfig['options']>, usage: string): Flags {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values as Flags;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
}
