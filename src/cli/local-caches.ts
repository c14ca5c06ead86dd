import { join } from 'node:path';
import { cacheBytesFromEnv } from '../config/cache-bytes.js';
import type { FixInput } from '../fix/fix-input.js';
import { createDepCache } from '../workspace/dep-cache.js';
import { UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { localCacheScope } from './local-cache-scope.js';

/**
 * The setup step's caches of a local command (`fix`, `eval`): the workdir's dependency cache and
 * package managers' caches, scoped to this checkout and branch; GREENFIX_CACHE_MB=0 turns them off.
 * `head`: the branch checked out (base-name.ts headRef), when the caller has asked already.
 */
export async function localCaches(local: { workdir: string; repo: string }, io: CliIo, warn: (message: string) => void, head?: Promise<string | null>): Promise<Pick<FixInput, 'caches'>> {
  const capBytes = cacheBytesFromEnv(io.env);
  if (typeof capBytes === 'string') throw new UsageError(capBytes);
  if (capBytes === 0) return {};
  const deps = createDepCache({ dir: join(local.workdir, 'dep-cache'), capBytes, warn, now: Date.now });
  return { caches: { deps, managerDir: join(local.workdir, 'package-cache'), scope: await localCacheScope(local.repo, head) } };
}
