import { rmSync, writeFileSync, chownSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { executeToolCall } from '../agent/tools/registry.js';
import { record } from '../agent/state.js';
import type { ChatModel } from '../model/types.js';
import type { Publisher } from '../fix/publisher.js';
import { git } from '../workspace/git.js';
import type { ChatSession } from './chat-session.js';

export const CHAT_HELP = `Type a request, or a command:
  /diff         the change so far against the base
  /tests        run the verify command now
  /commit       commit the verified tree (only if the current tree passed the tests)
  /undo         put the files back as they were before the last request
  /history      the requests of this session and how they ended
  /save FILE    the session as Markdown
  /model NAME   use another model from the next request on
  /clear        start a new session (the files stay as they are)
  /help         this help
  /exit         leave (Ctrl-C twice at the prompt does too)`;

export interface CommandContext {
  session: ChatSession;
  /** The repository the worktree belongs to (the objects /diff and /commit use). */
  repo: string;
  baseCommit: string;
  createdAt: number;
  publisher: (firstRequest: string) => Publisher;
  model: (name: string) => ChatModel;
  fileOwner: { uid: number; gid: number } | null;
  /** Starts a new session in place (a fresh journal and state). */
  clear: () => void;
  out: (line: string) => void;
  cwd: string;
}

export type CommandResult = 'continue' | 'exit';

/** Runs one slash command; unknown ones say so. */
export async function runCommand(line: string, ctx: CommandContext): Promise<CommandResult> {
  const [name = '', ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(' ');
  const { session, out } = ctx;
  switch (name) {
    case '/help':
      out(CHAT_HELP);
      return 'continue';
    case '/exit':
    case '/quit':
      return 'exit';
    case '/diff': {
      const tree = await session.workspace.treeHash();
      const diff = await git(['diff-tree', '-p', '--no-color', '--no-ext-diff', ctx.baseCommit, tree], { cwd: ctx.repo });
      out(diff.trim() === '' ? '(no changes against the base)' : diff.trimEnd());
      return 'continue';
    }
    case '/tests': {
      const result = await executeToolCall(session.deps.tools, { name: 'run_tests', arguments: '{}' }, { ...session.deps.toolContext, verified: session.state.verified });
      if (result.verified) await record(session.journal, session.state, { type: 'verified', tree: result.verified });
      out(result.output);
      return 'continue';
    }
    case '/commit':
      return commit(ctx);
    case '/undo':
      return undo(ctx);
    case '/history':
      out(session.turns.length === 0 ? '(no requests yet)' : session.turns.map((t, i) => `${i + 1}. ${t.text}\n   → ${t.outcome}`).join('\n'));
      return 'continue';
    case '/save': {
      if (!arg) {
        out('usage: /save FILE');
        return 'continue';
      }
      const file = join(ctx.cwd, arg);
      writeFileSync(file, markdownOf(session));
      out(`saved the session to ${file}`);
      return 'continue';
    }
    case '/model':
      if (!arg) {
        out(`model: ${session.deps.model.name} (usage: /model NAME)`);
        return 'continue';
      }
      session.deps = { ...session.deps, model: ctx.model(arg) };
      out(`model: ${session.deps.model.name}`);
      return 'continue';
    case '/clear':
      ctx.clear();
      out('new session (the files stay as they are; /undo and /history start over)');
      return 'continue';
    default:
      out(`unknown command ${name}; /help lists the commands`);
      return 'continue';
  }
}

/** The gate holds: only a tree the tests passed on, unchanged since, is committed. */
async function commit(ctx: CommandContext): Promise<CommandResult> {
  const { session, out } = ctx;
  const verified = session.state.verified;
  const current = await session.workspace.treeHash();
  if (!verified || verified.tree !== current) {
    out(verified ? 'not committed: files changed since the tests last passed (/tests runs them)' : 'not committed: the tests have not passed on this tree (/tests runs them)');
    return 'continue';
  }
  const first = session.turns[0]?.text ?? 'greenfix chat';
  const summary = [...session.turns].reverse().find((t) => t.outcome.startsWith('verified'))?.outcome.replace(/^verified: /, '') ?? '';
  const published = await ctx.publisher(first).publish({ verified, baseCommit: ctx.baseCommit, task: first, summary, date: new Date(ctx.createdAt) });
  out(`committed ${published.commit.slice(0, 12)} on ${published.branch} (tree ${published.tree.slice(0, 12)}, verified by ${verified.command})`);
  return 'continue';
}

/** Puts every file the last request changed back as it was before it; the model is told. */
async function undo(ctx: CommandContext): Promise<CommandResult> {
  const { session, out } = ctx;
  const before = session.snapshots.pop();
  if (!before) {
    out('nothing to undo');
    return 'continue';
  }
  const current = await session.workspace.treeHash();
  const changed = (await git(['diff-tree', '-r', '--name-only', '-z', '--no-renames', before, current], { cwd: ctx.repo })).split('\0').filter(Boolean);
  const old = new Set((await git(['ls-tree', '-r', '--name-only', '-z', before], { cwd: ctx.repo })).split('\0').filter(Boolean));
  for (const path of changed) {
    const file = join(session.workspace.root, path);
    rmSync(file, { force: true });
    if (!old.has(path)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, await git(['cat-file', 'blob', `${before}:${path}`], { cwd: ctx.repo }));
    if (ctx.fileOwner) chownSync(file, ctx.fileOwner.uid, ctx.fileOwner.gid);
  }
  const note = changed.length === 0 ? 'the last request changed no file' : `reverted ${changed.join(', ')}`;
  await record(session.journal, session.state, { type: 'observation', step: session.state.steps, text: `[the user undid the last request's edits: ${note}]` });
  out(note);
  return 'continue';
}

function markdownOf(session: ChatSession): string {
  const lines = ['# greenfix session', ''];
  for (const m of session.state.messages) {
    if (m.role === 'system') continue;
    if (m.role === 'user') lines.push('## user', '', m.content, '');
    if (m.role === 'assistant') {
      lines.push('## assistant', '');
      if (m.content) lines.push(m.content, '');
      for (const c of m.toolCalls ?? []) lines.push(`- \`${c.name}\` \`${c.arguments}\``);
      lines.push('');
    }
    if (m.role === 'tool') lines.push('```', m.content, '```', '');
  }
  return `${lines.join('\n')}\n`;
}
