import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { JournalCorruptError } from '../agent/journal.js';
import { readRunLog, renderRunLogJson } from '../run-log/read-run-log.js';
import { renderRunLogMarkdown } from '../run-log/render-markdown.js';
import { renderRunLogText } from '../run-log/render-text.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { latestJournal } from './latest-journal.js';
import { localWorkdir } from './local-workdir.js';
import type { CliIo } from './io.js';

export const LOG_USAGE = `Usage: greenfix log [--format text|md|json]
       greenfix log --run DIR [--format text|md|json]
       greenfix log JOURNAL [--format text|md|json]

Prints what a run did, step by step, from its journal (journal.jsonl): each tool call with its
arguments, outcome and duration, every test run, the verified tree, and why the run ended.
Without --run or JOURNAL: the latest local run in GREENFIX_WORKDIR (the last journal written).
  --run DIR       a run's directory (greenfix fix names it at the end; a job's is <workdir>/jobs/<id>)
  --format FMT    text (default, for a terminal), md (the check run's Markdown), json (the model)
  --quiet         text only: outcome lines, no outputs`;

const FORMATS = ['text', 'md', 'json'] as const;

/** `greenfix log`: the run log of a journal, in the terminal or exported. */
export function logCommand(argv: string[], io: CliIo): number {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { run: { type: 'string' }, format: { type: 'string', default: 'text' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.stdout(LOG_USAGE);
      return ExitCode.verified;
    }
    const format = values.format ?? 'text';
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got '${format}')`);
    const path = journalPath(values.run, positionals, io);
    const log = readRunLog(path, { secrets: knownSecrets(io.env) });
    if (format === 'json') io.stdout(renderRunLogJson(log));
    else if (format === 'md') io.stdout(renderRunLogMarkdown(log));
    else io.stdout(renderRunLogText(log, { outputChars: values.quiet ? 0 : 600 }));
    return ExitCode.verified;
  } catch (error) {
    if (error instanceof UsageError || error instanceof JournalCorruptError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`greenfix log: ${(error as Error).message}\n\n${LOG_USAGE}`);
      return ExitCode.usage;
    }
    throw error;
  }
}

function journalPath(run: string | undefined, positionals: string[], io: CliIo): string {
  if (run !== undefined && positionals.length > 0) throw new UsageError('give a JOURNAL or --run DIR, not both');
  if (positionals.length > 1) throw new UsageError(`one journal at a time (got ${positionals.length})`);
  const given = run !== undefined ? join(run, 'journal.jsonl') : (positionals[0] ?? latestJournal(localWorkdir(io.env)));
  if (given === null) throw new UsageError(`no run in ${localWorkdir(io.env)} yet: give a JOURNAL file or --run DIR`);
  const path = given.startsWith('/') ? given : join(io.cwd, given);
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`no journal at ${path}`);
  return path;
}

/** Secrets of this environment that must not show even if a command printed them. */
export function knownSecrets(env: Record<string, string | undefined>): string[] {
  return ['OPENAI_API_KEY', 'WEBHOOK_SECRET', 'GREENFIX_RUN_LINK_SECRET', 'GITHUB_TOKEN'].flatMap((k) => (env[k] ? [env[k]] : []));
}
