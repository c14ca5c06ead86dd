import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { arch, release, version } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { writeFileAtomic } from '../util/write-file-atomic.js';

/** What a passed probe decided: null, or why commands run without the cgroups found (joining them failed). */
export interface ProbeVerdict {
  cgroupFallback: string | null;
}

const EntrySchema = z.object({
  key: z.string(),
  at: z.number(),
  verdict: z.object({ cgroupFallback: z.string().nullable() }),
});
const FileSchema = z.object({ version: z.literal(1), entries: z.array(EntrySchema) });

/** A verdict older than this is probed again (a host's sysctls can change without anything the key sees). */
export const PROBE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 32;

/** Kernel settings that decide whether bubblewrap may make user namespaces (read when present). */
const USERNS_SYSCTLS = ['/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/user/max_user_namespaces', '/proc/sys/kernel/apparmor_restrict_unprivileged_userns'];

/**
 * The key of one probe: everything its outcome depends on that could change between two launches —
 * each tool of the launch chain (path, inode, size, mtime, ctime: an upgrade or a swap changes it),
 * the kernel (release, build) and its user-namespace sysctls, the architecture, the uid and the
 * sandbox's settings (`setting`: uids, limits, binds, cgroups found), and greenfix's own sandbox
 * code (every file of the directory this module was loaded from: src/sandbox/ of tsc's output, or
 * the bundled CLI's directory: src/cli/ with greenfix.cjs, or chunks/ for the server (scripts/bundle-cli.mjs), which a rebuild or an upgrade rewrites).
 */
export function probeKey(tools: readonly string[], setting: unknown): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  const add = (part: unknown) => hash.update(JSON.stringify(part)).update('\0');
  for (const tool of tools) add([tool, fileIdentity(tool)]);
  add([release(), version(), arch(), process.getuid?.() ?? null]);
  for (const path of USERNS_SYSCTLS) add([path, existsSync(path) ? readFileSync(path, 'utf8').trim() : null]);
  for (const name of readdirSync(here).sort()) add([name, fileIdentity(join(here, name))]);
  add(setting);
  return hash.digest('hex');
}

/** The verdict cached for `key` in `file`, or null (absent, unreadable, another key, too old). */
export function readProbeVerdict(file: string, key: string, now = Date.now()): ProbeVerdict | null {
  const entry = readEntries(file).find((e) => e.key === key);
  return entry && now - entry.at >= 0 && now - entry.at < PROBE_MAX_AGE_MS ? entry.verdict : null;
}

/** Records a passed probe (atomic: a unique temporary file, fsync, rename); the newest MAX_ENTRIES keys stay. */
export function writeProbeVerdict(file: string, key: string, verdict: ProbeVerdict, now = Date.now()): void {
  const entries = [{ key, at: now, verdict }, ...readEntries(file).filter((e) => e.key !== key)].slice(0, MAX_ENTRIES);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, JSON.stringify({ version: 1, entries }));
}

function readEntries(file: string): Array<z.infer<typeof EntrySchema>> {
  try {
    const parsed = FileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.entries : [];
  } catch {
    return [];
  }
}

function fileIdentity(path: string): unknown {
  try {
    const s = statSync(path);
    return [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs, s.mode];
  } catch {
    return null;
  }
}
