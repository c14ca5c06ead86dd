import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemPrompt } from '../../src/agent/prompt.js';
import { readAgentsMd } from '../../src/fix/agents-md.js';
import { readRegularFile, RegularFileError } from '../../src/util/regular-file.js';
import { detectCommands } from '../../src/workspace/detect-commands.js';
import { TempDirs } from '../support/temp-dir.js';

/**
 * Issue 9 (2): the host reads files of a worktree the sandbox wrote. A symlink to a secret, a
 * FIFO (whose open blocks a whole Node process) or a huge file must each be refused with a
 * clear message, in bounded time, without the secret reaching the prompt.
 */
const temp = new TempDirs();
afterEach(() => temp.cleanup());

const SECRET = 'PRIVATE_KEY=worktree-files-secret-9b';

function setup(): { root: string; secret: string } {
  const dir = temp.make();
  const secret = join(dir, 'host.env');
  writeFileSync(secret, `${SECRET}\n{"scripts":{"test":"steal"}}\n`);
  const root = join(dir, 'wt');
  mkdirSync(root);
  return { root, secret };
}

const plant: Record<string, (path: string, secret: string) => void> = {
  'a symlink to a host secret': (path, secret) => symlinkSync(secret, path),
  'a FIFO': (path) => execFileSync('mkfifo', [path]),
  'a 50 MB file': (path) => {
    writeFileSync(path, `{"scripts":{"test":"${SECRET}"}}`);
    truncateSync(path, 50 * 1024 * 1024);
  },
};

describe.each(Object.entries(plant))('a worktree file that is %s', (what, make) => {
  it('AGENTS.md: refused with a clear message, at once, and the secret is not in the prompt', () => {
    const { root, secret } = setup();
    make(join(root, 'AGENTS.md'), secret);
    const warnings: string[] = [];
    const started = Date.now();
    const text = readAgentsMd(root, (m) => warnings.push(m));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(what.includes('symlink') ? /symbolic link: not followed/ : what.includes('FIFO') ? /not a regular file/ : /over the \d+-byte limit/);
    expect(systemPrompt(text, 'npm test')).not.toContain(SECRET);
  });

  it('package.json: not read for detection (no command taken from it), with a clear message, at once', () => {
    const { root, secret } = setup();
    make(join(root, 'package.json'), secret);
    const warnings: string[] = [];
    const started = Date.now();
    const commands = detectCommands(root, {}, (m) => warnings.push(m));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(commands).toEqual({ verify: null, setup: null });
    expect(warnings.join('\n')).toMatch(/package\.json ignored for command detection/);
    expect(JSON.stringify(commands)).not.toContain('steal');
  });
});

describe('readRegularFile', () => {
  it('refuses a path whose parent directory is a symlink, even to a regular file', () => {
    const { root } = setup();
    const outside = join(root, '..', 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'pyproject.toml'), '[tool.pytest]\n');
    symlinkSync(outside, join(root, 'sub'));
    expect(() => readRegularFile(root, 'sub/pyproject.toml', 1000)).toThrow(RegularFileError);
    expect(() => readRegularFile(root, 'sub/pyproject.toml', 1000)).toThrow(/sub\/ is a symbolic link/);
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real', 'x.txt'), 'ok\n');
    expect(readRegularFile(root, 'real/x.txt', 1000).toString()).toBe('ok\n');
    expect(() => readRegularFile(root, '../outside/pyproject.toml', 1000)).toThrow(TypeError);
  });

  it('reads an ordinary AGENTS.md and package.json as before', () => {
    const { root } = setup();
    writeFileSync(join(root, 'AGENTS.md'), 'Run make check.\n');
    writeFileSync(join(root, 'package.json'), '{"scripts":{"test":"jest"}}\n');
    expect(readAgentsMd(root)).toBe('Run make check.\n');
    expect(detectCommands(root)).toEqual({ verify: 'npm test', setup: 'npm install' });
  });
});
