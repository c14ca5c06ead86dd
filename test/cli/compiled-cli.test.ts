import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCli } from '../../src/cli/compiled-cli.js';
import { BUGGY_REPO, runCli, writeScript } from './helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { makeRepo } from '../support/make-repo.js';

const HEADER = /^greenfix-code-cache 1 [0-9a-f]{64}\n/;

/**
 * The built CLI compiles itself once per command and starts from that code cache afterwards
 * (src/cli/compiled-cli.ts): only in a directory of the user's own, replaced when it does not
 * belong to this bundle, and out of the sandbox's reach.
 */
describe('the compiled CLI and its code cache', () => {
  let dir: string;
  let work: string;
  const cache = () => join(work, 'code-cache', 'fix.bin');
  const help = () => runCli(['fix', '--help'], { GREENFIX_WORKDIR: work });
  /** Identity and content: a file replaced has another inode. */
  const identity = (file: string) => ({ ino: statSync(file).ino, bytes: readFileSync(file) });

  beforeEach(() => {
    dir = tempDir('greenfix-code-cache-');
    work = join(dir, 'work');
    mkdirSync(work, { mode: 0o700 });
  });
  afterEach(() => cleanup(dir));

  it("keeps a command's compiled code in the workdir after its first run, and starts from it next time", async () => {
    const first = await help();
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Usage: greenfix fix');
    expect(statSync(join(work, 'code-cache')).mode & 0o777).toBe(0o700);
    expect(statSync(cache()).mode & 0o777).toBe(0o600);
    const written = identity(cache());
    expect(written.bytes.toString('latin1')).toMatch(HEADER);
    expect(written.bytes.length).toBeGreaterThan(100_000);
    // Accepted: the next run reads it and leaves it as it is.
    const second = await help();
    expect(second.stdout).toBe(first.stdout);
    expect(identity(cache())).toEqual(written);
    // Another command keeps a cache of its own.
    expect((await runCli(['log', '--help'], { GREENFIX_WORKDIR: work })).code).toBe(0);
    expect(readdirSync(join(work, 'code-cache')).sort()).toEqual(['fix.bin', 'log.bin']);
  });

  it('compiles again and replaces a cache of another bundle or node, and one whose bytes V8 refuses', async () => {
    await help();
    const good = readFileSync(cache());
    const header = good.toString('latin1').match(HEADER)?.[0] ?? '';
    for (const planted of [Buffer.concat([Buffer.from(header.replace(/[0-9a-f]{8}\n$/, '00000000\n')), good.subarray(header.length)]), Buffer.concat([Buffer.from(header), Buffer.alloc(4096, 7)])]) {
      writeFileSync(cache(), planted);
      const r = await help();
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: greenfix fix');
      expect(readFileSync(cache()).subarray(0, header.length).toString('latin1')).toBe(header);
      expect(readFileSync(cache()).length).toBeGreaterThan(100_000);
    }
  });

  it('neither reads nor writes a cache where others may write, nor makes the workdir for it', async () => {
    mkdirSync(join(work, 'code-cache'), { mode: 0o777 });
    chmodSync(join(work, 'code-cache'), 0o777);
    writeFileSync(cache(), 'planted by someone else');
    expect((await help()).code).toBe(0);
    expect(readFileSync(cache(), 'utf8')).toBe('planted by someone else');
    // A workdir that is a symlink is not the user's own directory either.
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    const link = join(dir, 'link');
    symlinkSync(elsewhere, link);
    expect((await runCli(['fix', '--help'], { GREENFIX_WORKDIR: link })).code).toBe(0);
    expect(readdirSync(elsewhere)).toEqual([]);
    // No workdir yet: a help makes none.
    const none = join(dir, 'none');
    expect((await runCli(['--help'], { GREENFIX_WORKDIR: none })).code).toBe(0);
    expect(existsSync(none)).toBe(false);
  });

  it("is out of a sandboxed command's reach", async () => {
    await help();
    const before = identity(cache());
    const repo = makeRepo(join(dir, 'repo'), BUGGY_REPO);
    const attack = `printf pwned > ${cache()}; printf pwned > ${join(work, 'code-cache', 'cli.bin')}; ls ${join(work, 'code-cache')}`;
    const script = writeScript(dir, [[['run', { command: attack }]], [['finish', { summary: 'x', gave_up: true }]]]);
    const r = await runCli(['fix', '--repo', repo, '--task', 'add subtracts', '--verify', 'bash test.sh', '--model', `scripted:${script}`, '--json'], { GREENFIX_WORKDIR: work });
    expect(r.json).toMatchObject({ status: 'gave_up' });
    const [run] = readdirSync(join(work, 'runs'));
    const journal = readFileSync(join(work, 'runs', String(run), 'journal.jsonl'), 'utf8');
    expect(journal).toContain('No such file or directory');
    expect(identity(cache())).toEqual(before);
    expect(readdirSync(join(work, 'code-cache'))).toEqual(['fix.bin']);
  });

  it('loads as ES modules without a bundle (the sources under test) and for the server', async () => {
    const modules = await loadCli({ command: 'fix', workdir: work });
    const bundle = join(dir, 'greenfix.cjs');
    writeFileSync(bundle, 'throw new Error("the server must not load the compiled CLI");');
    const server = await loadCli({ command: 'serve', workdir: work, bundle });
    expect(typeof modules.runCli).toBe('function');
    expect(server.runCli).toBe(modules.runCli);
    expect(existsSync(join(work, 'code-cache'))).toBe(false);
  });
});
