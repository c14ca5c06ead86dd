import * as z from 'zod';
import { cutLongLines } from '../../util/clip.js';
import { runProcess } from '../../util/run-process.js';
import { matchesGlob } from './glob.js';
import { resolveInWorkspace } from './paths.js';
import { detectSearchBackend, isNoMatch, parseHit, searchArgv, searchEnv, type SearchBackend, type SearchHit } from './search-backends.js';
import { TRUSTED_TIMEOUT_MS } from './trusted-env.js';
import type { Tool } from './types.js';

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
const MAX_FILES_LISTED = 40;

const schema = z.object({
  pattern: z.string().min(1).describe('regular expression'),
  path: z.string().optional().describe('file or directory (default: whole repo)'),
  glob: z.string().optional().describe('only files matching this glob, e.g. "*.ts"'),
});

function formatHits(hits: SearchHit[], truncatedOutput: boolean): string {
  if (hits.length === 0) return 'no matches';
  const shown = hits.slice(0, MAX_MATCHES).map((h) => `${h.path}:${h.line}:${cutLongLines(h.text, MAX_LINE_CHARS)}`);
  if (hits.length <= MAX_MATCHES && !truncatedOutput) return shown.join('\n');
  const perFile = new Map<string, number>();
  for (const h of hits) perFile.set(h.path, (perFile.get(h.path) ?? 0) + 1);
  const files = [...perFile].sort((a, b) => b[1] - a[1]);
  const listed = files.slice(0, MAX_FILES_LISTED).map(([p, n]) => `  ${p}: ${n}`);
  if (files.length > MAX_FILES_LISTED) listed.push(`  … ${files.length - MAX_FILES_LISTED} more files`);
  const total = truncatedOutput ? `at least ${hits.length}` : `${hits.length}`;
  return [
    ...shown,
    `[showing ${MAX_MATCHES} of ${total} matches in ${files.length} files; narrow with path or glob. Matches per file:]`,
    ...listed,
  ].join('\n');
}

/** The `search` tool over one backend (injectable so both can be tested on one machine). */
export function createSearchTool(backend: SearchBackend = detectSearchBackend()): Tool<typeof schema> {
  return {
    name: 'search',
    description: 'Search file contents by regex (honours .gitignore). Returns `path:line:text` lines.',
    schema,
    readOnly: true,
    async execute(args, ctx) {
      const root = ctx.workspace.root;
      const { rel } = resolveInWorkspace(root, args.path ?? '.');
      const r = await runProcess({
        argv: searchArgv(backend, { pattern: args.pattern, path: rel, glob: args.glob }),
        cwd: root,
        env: searchEnv(backend, ctx.workspace),
        timeoutMs: TRUSTED_TIMEOUT_MS,
        headBytes: 4 * 1024 * 1024,
        tailBytes: 0,
        signal: ctx.signal,
      });
      if (r.timedOut) return { ok: false, output: `search timed out after ${TRUSTED_TIMEOUT_MS / 1000}s; narrow it with path or glob` };
      const hits = r.stdout
        .split('\n')
        .map((l) => parseHit(backend, l))
        .filter((h): h is SearchHit => h !== null)
        .filter((h) => !h.path.startsWith('.greenfix/') && (backend === 'rg' || !args.glob || matchesGlob(h.path, args.glob)));
      if (r.exitCode !== 0 && !isNoMatch(r.exitCode) && hits.length === 0) {
        return { ok: false, output: `search failed (invalid pattern or path?): ${r.stderr.trim()}` };
      }
      return { ok: true, output: formatHits(hits, r.truncated) };
    },
  };
}
