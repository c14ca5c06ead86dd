import { findExecutable } from './find-executable.js';

export interface MissingPackage {
  binary: string;
  /** The Debian/Ubuntu package that provides it. */
  aptPackage: string;
  message: string;
}

interface Requirement {
  binary: string;
  aptPackage: string;
  why: string;
  /** Only needed when greenfix runs as root (the uid drop). */
  rootOnly?: boolean;
  /** Needed without the sandbox too. */
  always?: boolean;
  /** Only needed when the operator configured an environment image (GREENFIX_DEFAULT_IMAGE). */
  images?: boolean;
}

const REQUIREMENTS: readonly Requirement[] = [
  { binary: 'git', aptPackage: 'git', why: 'worktrees, tree hashes and commits', always: true },
  { binary: 'bash', aptPackage: 'bash', why: 'starting every command with no inherited descriptor, and running it', always: true },
  { binary: 'du', aptPackage: 'coreutils', why: "the disk watchdog that holds a job's worktree to its limit", always: true },
  { binary: 'bwrap', aptPackage: 'bubblewrap', why: 'the sandbox every command runs in' },
  { binary: 'setpriv', aptPackage: 'util-linux', why: 'dropping root before the sandbox starts', rootOnly: true },
  { binary: 'skopeo', aptPackage: 'skopeo', why: 'pulling environment images (GREENFIX_DEFAULT_IMAGE) from their registry', images: true },
  { binary: 'umoci', aptPackage: 'umoci', why: 'unpacking environment images (GREENFIX_DEFAULT_IMAGE)', images: true },
];

/**
 * Host programs greenfix needs, checked at start-up so a missing one is a clear message rather
 * than a failure in the middle of a job. `sandboxOff` skips the sandbox's own tools; `images`
 * (an operator's default image) adds skopeo and umoci.
 */
export function checkSystemPackages(options: { env: Record<string, string | undefined>; isRoot: boolean; sandboxOff?: boolean; images?: boolean }): MissingPackage[] {
  return REQUIREMENTS.filter((r) => (!r.rootOnly || options.isRoot) && (r.always === true || !options.sandboxOff) && (!r.images || options.images === true))
    .filter((r) => findExecutable(r.binary, options.env.PATH) === null)
    .map((r) => ({
      binary: r.binary,
      aptPackage: r.aptPackage,
      message: `${r.binary} is not installed (needed for ${r.why}): apt-get install ${r.aptPackage}`,
    }));
}
