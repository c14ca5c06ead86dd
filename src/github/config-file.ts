import type { ProbotOctokit } from 'probot';

/** Where greenfix's repository config lives (Probot's config plugin also looks in the org's `.github` repository). */
export const CONFIG_PATH = '.github/greenfix.yml';

/**
 * The raw `.github/greenfix.yml` of a repository (with the org `.github` repository's as its
 * base, and `_extends`, as Probot reads it), or null when neither has one. `octokit` should carry a
 * contents-read token: nothing else is needed.
 */
export async function readConfigFile(octokit: ProbotOctokit, repo: { owner: string; repo: string }): Promise<unknown> {
  const { files, config } = await octokit.config.get({ owner: repo.owner, repo: repo.repo, path: CONFIG_PATH });
  return files.every((file) => file.config === null) ? null : config;
}
