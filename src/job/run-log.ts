import { existsSync } from 'node:fs';
import { MAX_CHECK_TEXT_CHARS } from '../github/limits.js';
import { CHECK_NAME } from '../github/render-check-run.js';
import type { GitHost } from '../github/types.js';
import { untrustedMarkdown } from '../github/untrusted-text.js';
import { readRunLog } from '../run-log/read-run-log.js';
import { renderRunLogMarkdown } from '../run-log/render-markdown.js';
import { git } from '../workspace/git.js';

/** Where a job's run log comes from: its journal, and the mirror that holds the base and the trees. */
export interface JobRunLogSource {
  journal: string;
  gitDir: string;
  base: string;
  /** Secrets of this process that must not show even if a command printed one. */
  secrets: readonly string[];
  /** The signed run page, named when details had to go to fit. */
  pageUrl?: string | null;
}

/** The run log as the check run's Markdown, with the diff stat of `tree` against the base. */
export async function jobRunLogMarkdown(source: JobRunLogSource, tree: string | null): Promise<string> {
  const log = readRunLog(source.journal, { secrets: source.secrets });
  const diffStat = tree ? await treeDiffStat(source.gitDir, source.base, tree) : null;
  return renderRunLogMarkdown(log, { maxChars: MAX_CHECK_TEXT_CHARS, diffStat, fullLogUrl: source.pageUrl ?? null });
}

/** `git diff --stat base tree`; null when the mirror cannot say (the log is still worth posting). */
export async function treeDiffStat(gitDir: string, base: string, tree: string): Promise<string | null> {
  if (!existsSync(gitDir)) return null;
  try {
    return (await git(['diff', '--stat=100', '--no-color', base, tree], { cwd: gitDir })).trimEnd() || null;
  } catch {
    return null;
  }
}

export interface NoFixCheckRun {
  jobId: string;
  /** The commit the job worked on: the base commit (an issue's default branch, a PR's head). */
  headSha: string;
  conclusion: 'neutral' | 'failure';
  sentence: string;
  text: string;
}

/** A job that ends without a PR still leaves its log on GitHub: `greenfix/verify`, not green. */
export async function publishNoFixCheckRun(host: GitHost, run: NoFixCheckRun): Promise<string> {
  const { url } = await host.upsertCheckRun({
    name: CHECK_NAME,
    headSha: run.headSha,
    externalId: run.jobId,
    status: 'completed',
    conclusion: run.conclusion,
    output: {
      title: run.conclusion === 'failure' ? 'greenfix could not run the fix' : 'No verified fix: nothing was published',
      summary: `${untrustedMarkdown(run.sentence, 4_000)}\n\nThe run log below says what the agent read, changed and ran, and why it stopped.`,
      text: run.text,
    },
  });
  return url;
}
