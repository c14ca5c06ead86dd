import type { FileOwner } from '../sandbox/ownership.js';
import { describeConnections } from '../sandbox/describe-connections.js';
import { describeRefusals } from '../sandbox/describe-refusals.js';
import type { SandboxRunner, WritableBind } from '../sandbox/types.js';
import type { DepCache } from '../workspace/dep-cache.js';
import { dependencyCacheKey, type CacheKey } from '../workspace/dep-cache-key.js';
import type { DepCacheScope } from '../workspace/dep-cache-scope.js';
import type { ObservableWorkspace } from '../workspace/types.js';
import { lastLines } from '../util/clip.js';
import { redactText } from '../util/redact-text.js';
import { scrubSecrets } from '../workspace/scrub-secrets.js';
import { errorText } from '../util/error-text.js';
import type { RunState } from './run-state.js';

export type SetupResult = NonNullable<RunState['setup']>;

/** The dependency cache as one fix uses it: the workdir's cache, this repository's and ref's scope. */
export interface SetupCache {
  cache: DepCache;
  /** The repository and the ref whose entries this fix reads and writes. */
  scope: DepCacheScope;
  /** How sandbox uids are chosen (part of the key). */
  uidScheme: string;
  /** Who owns the worktree (restored files are given to it); null = the current user. */
  owner: FileOwner | null;
}

/** The dependency cache of a fix whose commands run as `owner`: restored files go to it, and how uids are chosen is part of the key. */
export function setupCache(caches: { deps: DepCache; scope: DepCacheScope }, owner: FileOwner | null): SetupCache {
  return { cache: caches.deps, scope: caches.scope, uidScheme: owner ? 'per-job-uid' : 'current-user', owner };
}

export interface SetupDeps {
  workspace: ObservableWorkspace;
  sandbox: SandboxRunner;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The repository's `network.allow`: the only domains setup may reach (empty: any public host). */
  egressAllow?: readonly string[];
  cache?: SetupCache;
  /**
   * The operator's setup secrets granted to this repository: in setup's environment only, redacted
   * from its output, and scrubbed from the files it wrote before anything is cached or kept.
   */
  secrets?: Readonly<Record<string, string>>;
  /** The package manager's own cache (npm_config_cache…): bound read-write for setup only. */
  managerCache?: { bind: WritableBind; env: Record<string, string> };
  warn?: (message: string) => void;
}

/**
 * Installs dependencies: the one command that may use the network. Everything it leaves in the
 * tree (node_modules when not ignored, a rewritten lockfile) is set aside: not part of the change.
 * With a cache: a hit restores the installed directories and skips the command; a successful
 * install is stored for the next job with the same key. A cache failure never fails the setup.
 */
export async function runSetup(deps: SetupDeps, command: string): Promise<SetupResult> {
  const key = deps.cache ? await cacheKey(deps, deps.cache, command) : null;
  if (deps.cache && key) {
    const { cache, scope, owner } = deps.cache;
    const { value: hit } = await deps.workspace.observe(() => cache.restore(scope, key, deps.workspace.root, owner), 'all');
    if (hit) {
      return { exitCode: 0, timedOut: false, durationMs: Math.round(hit.durationMs), outputTail: `restored ${key.dirs.join(', ')} from the dependency cache`, cache: { result: 'hit', bytes: hit.bytes } };
    }
  }
  const secrets = deps.secrets && Object.keys(deps.secrets).length > 0 ? deps.secrets : null;
  const since = Date.now();
  const { value: r, created, changed } = await deps.workspace.observe(
    async () => {
      const ran = await deps.sandbox.run({
        command,
        workspace: deps.workspace.root,
        readOnlyBinds: deps.workspace.sandboxBinds,
        // The package managers' caches are shared between repositories: never with secrets.
        ...(deps.managerCache && !secrets ? { writableBinds: [deps.managerCache.bind], env: deps.managerCache.env } : {}),
        ...(secrets ? { secrets } : {}),
        network: true,
        ...(deps.egressAllow && deps.egressAllow.length > 0 ? { egressAllow: deps.egressAllow } : {}),
        timeoutMs: deps.timeoutMs,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      // Inside the observation, so a scrubbed file counts as setup's own leftover.
      const scrubbed = secrets ? scrubSecrets(deps.workspace.root, secrets, since) : [];
      if (scrubbed.length > 0) deps.warn?.(`setup secrets: replaced by \${NAME} in ${scrubbed.slice(0, 3).join(', ')}${scrubbed.length > 3 ? ', …' : ''}`);
      return ran;
    },
    'all',
  );
  const output = `${r.stdout}\n${r.stderr}`.trim();
  const outputTail = lastLines(secrets ? redactText(output, Object.values(secrets)) : output, 40);
  const result: SetupResult = { exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, outputTail, ...(r.egress ? { egress: r.egress } : {}) };
  if (!deps.cache || !key) return result;
  if (r.exitCode !== 0 || r.timedOut || r.aborted) return { ...result, cache: { result: 'miss', bytes: 0 } };
  // A hit restores only the installed directories: a setup that also wrote elsewhere (a postinstall
  // output, a rewritten lockfile) would lose that on a hit, so it is not stored.
  const elsewhere = [...created, ...changed].filter((path) => !key.dirs.some((dir) => path === dir || path.startsWith(`${dir}/`)));
  if (elsewhere.length > 0) {
    deps.warn?.(`dependency cache: not stored: setup also wrote ${elsewhere.slice(0, 3).join(', ')}${elsewhere.length > 3 ? ', …' : ''}, which a restore would not bring back`);
    return { ...result, cache: { result: 'miss', bytes: 0 } };
  }
  const stored = await deps.cache.cache.store(deps.cache.scope, key, deps.workspace.root, deps.cache.owner).catch((error: unknown) => {
    deps.warn?.(`dependency cache: not stored: ${errorText(error)}`);
    return null;
  });
  return { ...result, cache: { result: stored ? 'stored' : 'miss', bytes: stored?.bytes ?? 0 } };
}

/**
 * The dependency state a baseline ran against, for its cache key (baseline-cache.ts): the digest of
 * everything setup left outside the base tree, contents included, as kept for the clean room
 * (workspace/setup-state.ts) — a restored cache entry and a fresh install alike — or `none` without
 * a setup. A run state from before that digest names itself, unique to the run, so its baseline is
 * never shared.
 */
export function dependencyState(state: Pick<RunState, 'setup' | 'baseCommit' | 'createdAt'>): string {
  if (!state.setup) return 'none';
  return state.setup.dependencyState?.digest ?? `unrecorded:${state.baseCommit}:${state.createdAt}`;
}

async function cacheKey(deps: SetupDeps, cache: SetupCache, command: string): Promise<CacheKey | null> {
  try {
    return await dependencyCacheKey(deps.workspace.root, command, cache.cache.tools, cache.uidScheme, deps.sandbox.image?.digest ?? null);
  } catch (error) {
    deps.warn?.(`dependency cache: no key (${errorText(error)}): setup runs uncached`);
    return null;
  }
}

/**
 * The setup line of the status comment and the CLI: the command, how it ended (with the cache:
 * "restored from cache (0.6 s)", "installed (13.5 s), cached"), what egress refused.
 */
export function setupSummary(command: string, setup: SetupResult): string {
  const parts = [command.length > 60 ? `${command.slice(0, 59)}…` : command];
  const seconds = `${(setup.durationMs / 1000).toFixed(1)} s`;
  if (setup.cache?.result === 'hit') parts.push(`restored from cache (${seconds})`);
  else if (setup.timedOut) parts.push('timed out', seconds);
  else if (setup.exitCode !== 0) parts.push(`exit ${setup.exitCode ?? 'signal'}`, seconds);
  else if (setup.cache) parts.push(setup.cache.result === 'stored' ? `installed (${seconds}), cached` : `installed (${seconds})`);
  else parts.push(seconds);
  parts.push(...egressLines(setup));
  return parts.join(' · ');
}

/** Every connection setup made through the egress proxy, then every one it refused (host, port, bytes). */
function egressLines(setup: SetupResult): string[] {
  if (!setup.egress) return [];
  return [describeConnections(setup.egress), describeRefusals(setup.egress)].filter((l): l is string => l !== null);
}

/**
 * What the model is told about setup: when it failed (it may be the very thing to fix), how, and its
 * output; and whenever it used the network, what the egress proxy let through and refused.
 */
export function setupNote(command: string, setup: SetupResult): string | null {
  const failed = setup.exitCode !== 0 || setup.timedOut;
  const egressText = egressLines(setup).join('; ');
  const egress = egressText ? ` Its network goes only through greenfix's egress proxy (public hosts only): ${egressText}.` : '';
  if (!failed) return egress ? `Note: the setup command \`${command}\` succeeded.${egress}` : null;
  const how = setup.timedOut ? 'timed out' : `failed with exit code ${setup.exitCode}`;
  return `Note: the setup command \`${command}\` ${how}.${egress} Its output ended with:\n${setup.outputTail}`;
}
