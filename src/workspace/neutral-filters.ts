import { git, GitError } from './git.js';

/**
 * Config that switches off every filter driver the repository's own config defines
 * (`filter.<name>.clean/smudge/process`, e.g. git-lfs installed with `--local`): a `.gitattributes`
 * line `filter=<name>` would otherwise run that command in greenfix's unsandboxed process at
 * checkout and at every tree hash. System and global config are off already (HOST_GIT_ENV), so
 * these are the only drivers git could find. Passed as GIT_CONFIG_* variables (a name may hold
 * any character but newline), they win over the repository's config. With no driver, checkout
 * and tree hash both see the blobs as stored, so the hash stays consistent: a git-lfs repository
 * keeps its pointer files.
 */
export async function neutralFilterEnv(gitDir: string, cwd: string): Promise<Record<string, string>> {
  let listing: string;
  try {
    listing = await git(['config', '--null', '--get-regexp', '^filter\\.'], { cwd, env: { GIT_DIR: gitDir } });
  } catch (error) {
    if (error instanceof GitError && error.kind === 'exit' && error.exitCode === 1) return {};
    throw error;
  }
  const names = new Set<string>();
  for (const record of listing.split('\0')) {
    const key = record.split('\n', 1)[0] ?? '';
    const last = key.lastIndexOf('.');
    if (key.startsWith('filter.') && last > 'filter.'.length) names.add(key.slice('filter.'.length, last));
  }
  const env: Record<string, string> = {};
  let n = 0;
  for (const name of names) {
    for (const [variable, value] of [['clean', ''], ['smudge', ''], ['process', ''], ['required', 'false']] as const) {
      env[`GIT_CONFIG_KEY_${n}`] = `filter.${name}.${variable}`;
      env[`GIT_CONFIG_VALUE_${n}`] = value;
      n++;
    }
  }
  if (n > 0) env.GIT_CONFIG_COUNT = String(n);
  return env;
}
