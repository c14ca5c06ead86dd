import { classifyConfigReadError } from './config-read-error.js';
import { parseRepoConfig, type RepoConfigResult } from './parse-repo-config.js';

/**
 * Reads and validates the repository's config. `read` is `() => context.config('greenfix.yml')`
 * (Probot reads `.github/greenfix.yml` from the default branch; null when there is none).
 * A broken file is a list of problems for the user; GitHub failing to answer is thrown.
 */
export async function loadRepoConfig(read: () => Promise<unknown>): Promise<RepoConfigResult> {
  let raw: unknown;
  try {
    raw = await read();
  } catch (error) {
    const failure = classifyConfigReadError(error);
    if (failure.kind === 'rethrow') throw error;
    if (failure.kind === 'problem') return { ok: false, problems: [failure.problem] };
    raw = null;
  }
  return parseRepoConfig(raw);
}
