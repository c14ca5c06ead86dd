import * as z from 'zod';
import { ToolRefusal } from './errors.js';
import { createFile } from './file-write.js';
import { resolveInWorkspace } from './paths.js';
import { guardSyntax } from './syntax-guard.js';
import { splitLines, statOrNull } from './text-file.js';
import type { Tool } from './types.js';

const schema = z.object({ path: z.string(), content: z.string() });

/** New files only: existing files change through edit_file, so nothing is clobbered wholesale. */
export const writeFileTool: Tool<typeof schema> = {
  name: 'write_file',
  description: 'Create a NEW file (parent directories too). Existing files are refused: use edit_file.',
  schema,
  readOnly: false,
  async execute(args, ctx) {
    const { abs, rel } = resolveInWorkspace(ctx.workspace.root, args.path);
    const existing = statOrNull(abs);
    if (existing?.isDirectory()) throw new ToolRefusal('is_directory', `${rel}: is a directory`);
    if (existing) throw new ToolRefusal('exists', `${rel} exists: use edit_file`);
    const refusal = await guardSyntax(rel, null, args.content);
    if (refusal) return { ok: false, output: refusal };
    ctx.workspace.release(rel);
    createFile(abs, args.content, ctx.fileOwner);
    return { ok: true, output: `created ${rel} (${splitLines(args.content).length} lines)` };
  },
};
