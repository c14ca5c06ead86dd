import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parsePrices } from '../../src/model/prices.js';
import { openSqliteQueue } from '../../src/queue/sqlite-queue.js';
import { runCli } from '../cli/helpers.js';
import { cleanup, tempDir } from '../support/temp-dir.js';
import { docCommands, docFiles, type DocCommand } from './doc-commands.js';

const ROOT = resolve('.');
const COMMANDS: DocCommand[] = docFiles(ROOT).flatMap((f) => docCommands(ROOT, f));
const SUBCOMMANDS = ['fix', 'doctor', 'chat', 'log', 'stats', 'eval', 'serve', 'worker'];

/**
 * Who runs each command the README and docs/ show: a test or a CI script (`by`, which must exist and
 * contain `needle`), or this file itself (`run`: executed below). A command no entry matches fails.
 */
const COVERED: Array<{ pattern: RegExp; by: string; needle: string }> = [
  { pattern: /^git fetch origin greenfix\/issue-12 && git rev-parse FETCH_HEAD\^\{tree\}$/, by: 'test/system/harness.ts', needle: '^{tree}' },
  { pattern: /^sudo apt-get install -y git bubblewrap ripgrep$/, by: '.ci/run', needle: 'need+=(bubblewrap)' },
  { pattern: /^npm ci && npm start$/, by: 'test/system/serve-setup.test.ts', needle: 'setup page' },
  { pattern: /^npm ci && npm test$/, by: '.ci/run', needle: 'npm ci && npm test' },
  { pattern: /^export [A-Z_]+=\S+$/, by: 'test/docs/commands.test.ts', needle: 'bash -n' },
  { pattern: /^npx smee-client --url "\$WEBHOOK_PROXY_URL" --target http:\/\/localhost:3000\/api\/github\/webhooks$/, by: 'test/app/setup-page.test.ts', needle: '/api/github/webhooks' },
  { pattern: /^(npx )?greenfix doctor /, by: 'test/cli/doctor.test.ts', needle: "'doctor'" },
  { pattern: /^mkdir primes && npx greenfix fix --repo primes --init /, by: 'test/cli/fix-empty-repo.test.ts', needle: "'--init'" },
  { pattern: /^(npx )?greenfix fix /, by: 'test/cli/fix-scripted.test.ts', needle: "'fix'" },
  { pattern: /^(npx )?greenfix chat /, by: 'test/cli/chat-tty.test.ts', needle: 'chat' },
  { pattern: /^(npx )?greenfix log( |$)/, by: 'test/cli/fix-scripted.test.ts', needle: "['log', '--quiet']" },
  { pattern: /^GREENFIX_PRICES='/, by: 'test/docs/commands.test.ts', needle: 'parsePrices(' },
  { pattern: /^greenfix eval mine /, by: 'test/eval/mine.test.ts', needle: "'eval', 'mine'" },
  { pattern: /^greenfix eval run .*--max-cost /, by: 'test/eval/max-cost.test.ts', needle: "'--max-cost'" },
  { pattern: /^greenfix eval run /, by: 'test/eval/run.test.ts', needle: "'eval', 'run'" },
  { pattern: /^greenfix eval --compare /, by: 'test/eval/swe-bench.test.ts', needle: "'eval', '--compare'" },
  { pattern: /^greenfix stats --since 30d$/, by: 'test/docs/commands.test.ts', needle: "'stats', '--since', '30d'" },
  { pattern: /^redis-server --appendonly yes /, by: 'test/support/redis-server.ts', needle: "'--appendonly', 'yes'" },
  { pattern: /^REDIS_URL=\S+ .*greenfix (serve|worker)$/, by: 'test/system/serve-redis.test.ts', needle: 'REDIS_URL' },
  { pattern: /^(docker|podman) (build|run|restart) /, by: 'scripts/check-image.sh', needle: 'unmask=ALL' },
];

describe('every command in the README and docs/', () => {
  it('finds the commands (the extraction works)', () => {
    expect(COMMANDS.length).toBeGreaterThan(20);
    expect(COMMANDS.map((c) => c.command)).toContain('npm ci && npm test');
  });

  it.each(COMMANDS.map((c) => [`${c.file}:${c.line}`, c] as const))('%s is covered by a test or CI script that exists', (_where, c) => {
    const entries = COVERED.filter((e) => e.pattern.test(c.command));
    expect({ command: c.command, covered: entries.length > 0 }).toEqual({ command: c.command, covered: true });
    const entry = entries[0]!;
    expect({ by: entry.by, exists: existsSync(join(ROOT, entry.by)) }).toEqual({ by: entry.by, exists: true });
    expect({ by: entry.by, names: readFileSync(join(ROOT, entry.by), 'utf8').includes(entry.needle) }).toEqual({ by: entry.by, names: true });
  });

  it('each is valid shell (bash -n)', () => {
    for (const c of COMMANDS) {
      const check = () => execFileSync('bash', ['-n', '-c', c.command.replace(/<([a-z ]+)>/g, 'X')], { stdio: 'pipe' });
      expect({ where: `${c.file}:${c.line}`, check }).toEqual({ where: `${c.file}:${c.line}`, check: expect.any(Function) });
      check();
    }
  });

  it('every greenfix subcommand shown exists, with only options its --help names', async () => {
    const helps = new Map<string, string>();
    for (const c of COMMANDS) {
      for (const m of c.command.matchAll(/\bgreenfix (\w+)((?: (?!&&)[^|;&]*)?)/g)) {
        const [, sub, rest] = m as unknown as [string, string, string];
        if (!SUBCOMMANDS.includes(sub)) continue;
        if (!helps.has(sub)) helps.set(sub, (await runCli([sub, '--help'], {})).stdout);
        const help = helps.get(sub)!;
        expect({ sub, help: help.length > 0 }).toEqual({ sub, help: true });
        for (const flag of rest.match(/(?<=\s)--[a-z][a-z-]*/g) ?? []) expect({ where: `${c.file}:${c.line}`, sub, flag, known: help.includes(flag) }).toEqual({ where: `${c.file}:${c.line}`, sub, flag, known: true });
      }
    }
    expect([...helps.keys()].sort()).toEqual(expect.arrayContaining(['chat', 'doctor', 'fix', 'log', 'stats']));
  }, 60_000);

  it('runs what can run here: GREENFIX_PRICES parses, greenfix stats --since 30d answers on an empty store', async () => {
    const prices = COMMANDS.find((c) => c.command.startsWith("GREENFIX_PRICES='"))!;
    const value = execFileSync('bash', ['-c', `${prices.command}; printf %s "$GREENFIX_PRICES"`], { encoding: 'utf8' });
    expect(parsePrices(value)['gpt-4o-mini']).toMatchObject({ input: 0.15, output: 0.6 });
    const dir = tempDir('greenfix-doc-stats-');
    try {
      mkdirSync(join(dir, 'work'));
      await openSqliteQueue({ path: join(dir, 'work', 'greenfix.db') }).close(); // the store `greenfix serve` leaves
      const r = await runCli(['stats', '--since', '30d'], { GREENFIX_WORKDIR: join(dir, 'work') });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('greenfix stats, since');
    } finally {
      cleanup(dir);
    }
  }, 30_000);
});
