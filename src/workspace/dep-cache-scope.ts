import { createHash } from 'node:crypto';

/**
 * Whose dependency-cache entries a job may read, as GitHub Actions scopes its caches: what a job on
 * the repository's default branch stores is readable by every job of the repository; what a job on
 * any other ref stores (a pull request's head, a greenfix branch, a CI fix, a review) only by jobs
 * on that same ref. A branch's `postinstall` is not part of the key, so without this it could plant
 * a shim under the default branch's key.
 */
export interface DepCacheScope {
  /** The repository (a job's repo id, a hash of a local checkout's path): entries never cross it. */
  repo: string;
  /** The ref whose tree the setup installs (`refs/heads/main`, `refs/pull/7/head`). */
  ref: string;
  /** The repository's default branch (`refs/heads/main`). */
  defaultRef: string;
}

/** The refs a restore looks in, in order: the job's own, then the default branch's. */
export function refsToRead(scope: DepCacheScope): string[] {
  return scope.ref === scope.defaultRef ? [scope.ref] : [scope.ref, scope.defaultRef];
}

/** One directory per ref: `ref-` and a hash (a ref name may hold any byte git allows). */
export function refDirName(ref: string): string {
  return `ref-${createHash('sha256').update(ref).digest('hex').slice(0, 32)}`;
}
