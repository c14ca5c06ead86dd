import type { RepoConfig } from '../config/repo-config.js';
import { git } from '../workspace/git.js';

/** A commit touches files the repository's config keeps greenfix away from. */
export class PathPolicyError extends Error {
  override readonly name = 'PathPolicyError';
  constructor(readonly paths: string[]) {
    super(`the fix changes ${paths.map((p) => `\`${p}\``).join(', ')}, which greenfix may not change here`);
  }
}

const WORKFLOWS = '.github/workflows/**';

/** Paths changed between the base commit and the verified tree that the config forbids. */
export async function forbiddenPaths(gitDir: string, baseCommit: string, tree: string, paths: RepoConfig['paths']): Promise<string[]> {
  const out = await git(['diff-tree', '-r', '--name-only', '-z', '--no-renames', `${baseCommit}^{tree}`, tree], { cwd: gitDir });
  const changed = out.split('\0').filter(Boolean);
  const deny = [...paths.deny, ...(paths.allow_workflows ? [] : [WORKFLOWS])].map(globToRegExp);
  return changed.filter((path) => deny.some((re) => re.test(path)));
}

/** `**` crosses directories, `*` and `?` do not; a pattern without `/` matches at any depth. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const anchored = glob.includes('/') ? `^${source.replace(/^\//, '')}` : `^(?:.*/)?${source}`;
  return new RegExp(`${anchored}(?:/.*)?$`);
}
