import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { runProcess } from '../../util/run-process.js';
import { buildTree, renderTree } from './file-tree.js';
import { resolveInWorkspace } from './paths.js';
import { SAFE_GIT_FLAGS, TRUSTED_TIMEOUT_MS, trustedGitEnv } from './trusted-env.js';
import type { Tool } from './types.js';

const MAX_ENTRIES = 400;

const schema = z.object({
  path: z.string().optional().describe('directory (default: repo root)'),
  depth: z.number().int().min(1).max(20).optional().describe('levels shown (default 3)'),
});

const existsNow = (abs: string): boolean => {
  try {
    lstatSync(abs);
    return true;
  } catch {
    return false;
  }
};

export const listFilesTool: Tool<typeof schema> = {
  name: 'list_files',
  description: 'List files under a directory as a tree (honours .gitignore; directories end with /).',
  schema,
  readOnly: true,
  async execute(args, ctx) {
    const root = ctx.workspace.root;
    const { rel } = resolveInWorkspace(root, args.path ?? '.');
    const r = await runProcess({
      argv: ['git', ...SAFE_GIT_FLAGS, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', rel],
      cwd: root,
      env: trustedGitEnv(ctx.workspace),
      timeoutMs: TRUSTED_TIMEOUT_MS,
      headBytes: 32 * 1024 * 1024,
      tailBytes: 0,
      signal: ctx.signal,
    });
    if (r.exitCode !== 0) return { ok: false, output: `list_files failed: ${r.stderr.trim()}` };
    const prefix = rel === '.' ? '' : `${rel}/`;
    const files = [...new Set(r.stdout.split('\0'))]
      .filter((p) => p !== '' && !p.startsWith('.greenfix/') && existsNow(join(root, p)))
      .map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p));
    if (files.length === 0) return { ok: true, output: `${rel}: no files (missing, empty, or all ignored by .gitignore)` };
    if (files.length === 1 && files[0] === rel) return { ok: true, output: `${rel} (a file: use read_file)` };
    const lines = renderTree(buildTree(files), args.depth ?? 3);
    const shown = lines.slice(0, MAX_ENTRIES);
    if (lines.length > MAX_ENTRIES) shown.push(`… ${lines.length - MAX_ENTRIES} more entries; list a subdirectory or lower depth`);
    return { ok: true, output: `${prefix || './'} (${files.length} files)\n${shown.join('\n')}` };
  },
};
