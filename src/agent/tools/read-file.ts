import * as z from 'zod';
import { cutLongLines } from '../../util/clip.js';
import { resolveInWorkspace } from './paths.js';
import { scratchFileOf } from './scratch.js';
import { loadTextFile, numberLine, splitLines } from './text-file.js';
import type { Tool } from './types.js';

const MAX_LINE_CHARS = 2000;

const schema = z.object({
  path: z.string(),
  offset: z.number().int().min(1).optional().describe('first line, 1-based (default 1)'),
  limit: z.number().int().min(1).optional().describe('lines to show (default 400)'),
});

export const readFileTool: Tool<typeof schema> = {
  name: 'read_file',
  description: 'Read a text file as numbered lines (`   12 │ text`). Line numbers are not part of the file.',
  schema,
  readOnly: true,
  async execute(args, ctx) {
    // A command's full output (the path its result printed) lives outside the worktree, read-only.
    const scratch = scratchFileOf(ctx.workspace.scratchDir, args.path);
    const { abs, rel } = scratch ? { abs: scratch, rel: scratch } : resolveInWorkspace(ctx.workspace.root, args.path);
    const { text } = loadTextFile(abs, rel);
    const lines = splitLines(text.startsWith('\uFEFF') ? text.slice(1) : text);
    const total = lines.length;
    if (total === 0) return { ok: true, output: `${rel}: empty file (0 lines)` };
    const first = args.offset ?? 1;
    if (first > total) return { ok: false, output: `${rel}: offset ${first} is past the end: the file has ${total} lines` };
    const last = Math.min(total, first + (args.limit ?? 400) - 1);
    const body = lines
      .slice(first - 1, last)
      .map((line, i) => numberLine(first + i, cutLongLines(line, MAX_LINE_CHARS)))
      .join('\n');
    const footer =
      first === 1 && last === total
        ? `(${total} lines)`
        : `(showing ${first}–${last} of ${total} lines; use offset to read more)`;
    return { ok: true, output: `${body}\n${footer}` };
  },
};
