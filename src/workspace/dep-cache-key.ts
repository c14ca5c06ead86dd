import { createHash } from 'node:crypto';
import { readRegularText, RegularFileError } from '../util/regular-file.js';

/** Lockfiles are read whole to hash them; past this they are not (and nothing is cached). */
export const LOCKFILE_MAX_BYTES = 64 * 1024 * 1024;

/** One ecosystem whose install the cache can keep: its lockfiles, its manager, what it installs. */
interface Ecosystem {
  manager: string;
  /** Any one of these present makes the install reproducible. */
  lockfiles: readonly string[];
  /** Also part of the key when present (they change what an install does). */
  inputs: readonly string[];
  /** Installed directories, relative to the worktree root. */
  dirs: readonly string[];
}

/**
 * Node only (choice): node_modules is relocatable, so a copy works in another worktree. A Python
 * `.venv` holds absolute paths (shebangs, pyvenv.cfg) of the worktree it was made in; its installs
 * are made warm by the package manager's own cache instead (PIP_CACHE_DIR).
 */
const ECOSYSTEMS: readonly Ecosystem[] = [
  { manager: 'pnpm', lockfiles: ['pnpm-lock.yaml'], inputs: ['package.json', '.npmrc', 'pnpm-workspace.yaml'], dirs: ['node_modules'] },
  { manager: 'yarn', lockfiles: ['yarn.lock'], inputs: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml'], dirs: ['node_modules'] },
  { manager: 'npm', lockfiles: ['package-lock.json', 'npm-shrinkwrap.json'], inputs: ['package.json', '.npmrc'], dirs: ['node_modules'] },
];

/** What the host knows about the tools a setup runs with (same binaries as inside the sandbox). */
export interface ToolVersions {
  /** `node --version`, `npm --version`…; memoised by the caller. */
  version(tool: string): Promise<string>;
  /** Platform, architecture, libc: what native modules were built for. */
  platform: string;
}

export interface CacheKey {
  /** sha256 of every part below, hex. */
  key: string;
  manager: string;
  dirs: readonly string[];
  /** What went into the key, for the entry's metadata and the log. */
  parts: Record<string, string>;
}

/**
 * The cache key of a setup in `root` (a worktree: read as hostile, regular files only), or null
 * when nothing can be cached: no lockfile (an install without one is not reproducible), or a
 * lockfile the host will not read (symlink, FIFO, too large). Key: the lockfile and install
 * inputs' contents, the setup command, the manager's and Node's versions, the platform, the
 * sandbox's uid scheme and the environment image's digest (when there is one).
 */
export async function dependencyCacheKey(root: string, setup: string, tools: ToolVersions, uidScheme: string, image: string | null = null): Promise<CacheKey | null> {
  const ecosystem = ECOSYSTEMS.find((e) => e.lockfiles.some((file) => readable(root, file) !== null));
  if (!ecosystem || isWorkspaceRoot(root)) return null;
  const parts: Record<string, string> = { setup, manager: ecosystem.manager, platform: tools.platform, uids: uidScheme };
  // What an install built against an environment image's libraries is good for: that digest only.
  if (image) parts.image = image;
  for (const file of [...ecosystem.lockfiles, ...ecosystem.inputs]) {
    const text = readable(root, file);
    if (text === undefined) return null;
    if (text !== null) parts[`file:${file}`] = createHash('sha256').update(text).digest('hex');
  }
  parts.node = await tools.version('node');
  parts[ecosystem.manager] = await tools.version(ecosystem.manager);
  const hash = createHash('sha256');
  for (const name of Object.keys(parts).sort()) hash.update(`${name}\0${parts[name]}\0`);
  return { key: hash.digest('hex'), manager: ecosystem.manager, dirs: ecosystem.dirs, parts };
}

/**
 * A monorepo (npm/yarn `workspaces`, pnpm-workspace.yaml) installs `node_modules` in its packages
 * too; only the root one would be cached, so such a repository is not cached at all.
 */
function isWorkspaceRoot(root: string): boolean {
  if (readable(root, 'pnpm-workspace.yaml') !== null) return true;
  const pkg = readable(root, 'package.json');
  if (!pkg) return false;
  try {
    const parsed: unknown = JSON.parse(pkg);
    return typeof parsed === 'object' && parsed !== null && 'workspaces' in parsed;
  } catch {
    return false;
  }
}

/** The file's text; null when absent; undefined when present but refused (a symlink, FIFO…). */
function readable(root: string, file: string): string | null | undefined {
  try {
    return readRegularText(root, file, LOCKFILE_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof RegularFileError)) throw error;
    return error.reason === 'missing' ? null : undefined;
  }
}
