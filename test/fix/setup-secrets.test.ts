import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseFixOptions } from '../../src/cli/fix-options.js';
import { locateRun, openRunWorkspace } from '../../src/cli/local-run.js';
import { localFixInput } from '../../src/cli/local-session.js';
import { runFix } from '../../src/fix/run-fix.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { readRunLog } from '../../src/run-log/read-run-log.js';
import { renderRunLogText } from '../../src/run-log/render-text.js';
import { createSandbox } from '../../src/sandbox/create-sandbox.js';
import { testOnlyTreatAsPublic, type Resolver } from '../../src/sandbox/egress-decision.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { createDepCache } from '../../src/workspace/dep-cache.js';
import { makeRepo } from '../support/make-repo.js';
import { startPrivateRegistry, type PrivateRegistry } from '../support/private-registry.js';
import { cleanup, tempDir, TempDirs } from '../support/temp-dir.js';

const TOKEN = 'npm-private-token-4d2c9e71b0';
const scratch = new TempDirs();

/** Every file's text under `dir`, for "the value is nowhere in there". */
function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size < 50_000_000) out.push(readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out.join('\n');
}

/**
 * A private npm registry on loopback (a token required), real bwrap and the egress proxy, runFix
 * with a scripted model: setup installs with the operator's secret; the agent, the journal, the run
 * log, the kept setup state and the dependency cache never see it.
 */
describe('setup secrets, end to end', () => {
  let registry: PrivateRegistry;
  let sandbox: Sandbox;
  let dir: string;

  beforeAll(async () => {
    registry = await startPrivateRegistry(scratch.make('gf-private-registry-'), TOKEN);
    const resolve: Resolver = async (host) => (host === 'registry.test' ? [{ address: '127.0.0.1', family: 4 }] : []);
    sandbox = await createSandbox({ env: { PATH: process.env.PATH }, log: () => undefined, egress: { policy: testOnlyTreatAsPublic([`127.0.0.1:${registry.port}`]), resolve } });
    dir = tempDir('gf-secrets-');
  });
  afterAll(async () => {
    await registry.close();
    scratch.cleanup();
    cleanup(dir);
  });

  it('npm ci installs from the private registry with the secret; nothing after setup holds it', async () => {
    const host = `registry.test:${registry.port}`;
    const repo = makeRepo(join(dir, 'repo'), {
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { '@acme/secret-dep': '1.0.0' }, scripts: { test: 'node test.js' } }),
      'package-lock.json': JSON.stringify({
        name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true,
        packages: { '': { name: 'app', version: '1.0.0', dependencies: { '@acme/secret-dep': '1.0.0' } }, 'node_modules/@acme/secret-dep': registry.lockEntry(host) },
      }),
      '.npmrc': `@acme:registry=http://${host}/\n//${host}/:_authToken=\${NPM_TOKEN}\n`,
      'test.js': "if (require('@acme/secret-dep') !== 'private') process.exit(1);\nconsole.log('ok');\n",
      '.gitignore': 'node_modules/\n',
    });
    // Setup also leaves the token in a file, as a careless install script would.
    const setup = `npm ci --no-audit --no-fund && printf '//${host}/:_authToken=%s\\n' "$NPM_TOKEN" > node_modules/.npmrc`;
    const peek = 'env; cat ~/.npmrc .npmrc node_modules/.npmrc; echo "token:[$NPM_TOKEN]"';
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'run', arguments: { command: peek } }] },
      { tool_calls: [{ name: 'finish', arguments: { summary: 'looked around', gave_up: true } }] },
    ]);
    const options = parseFixOptions(['--repo', repo, '--task', 'look', '--verify', 'npm test', '--setup', setup, '--model', 'scripted:unused'], repo);
    if (options === 'help') throw new Error('help');
    const workdir = join(dir, 'work');
    const run = await locateRun({ GREENFIX_WORKDIR: workdir }, options.repo, options.task);
    const { workspace, state } = await openRunWorkspace(run, null);
    const job = await sandbox.forJob({ workspace: run.worktree });
    const deps = createDepCache({ dir: join(workdir, 'dep-cache'), capBytes: 100 * 1024 * 1024, warn: () => undefined, now: Date.now });
    const lines: string[] = [];
    const result = await runFix({
      ...localFixInput({
        options, run, state, workspace, commands: { setup, verify: 'npm test' }, model, sandbox: job, env: {}, stderr: (l) => lines.push(l),
        caches: { deps, managerDir: join(workdir, 'package-cache'), scope: { repo: 'acme', ref: 'refs/heads/main', defaultRef: 'refs/heads/main' } },
      }),
      setupAllow: ['registry.test'],
      setupSecrets: { NPM_TOKEN: TOKEN },
    }).finally(() => job.release());

    // Setup really installed from the registry, with the token.
    expect(lines.join('\n')).toMatch(/setup: done: .*installed/);
    expect(registry.authorizations).toContain(`Bearer ${TOKEN}`);
    expect(readFileSync(join(run.worktree, 'node_modules/@acme/secret-dep/index.js'), 'utf8')).toContain('private');
    // The file setup wrote keeps its shape, without the value.
    expect(readFileSync(join(run.worktree, 'node_modules/.npmrc'), 'utf8')).toBe(`//${host}/:_authToken=\${NPM_TOKEN}\n`);
    expect(result.status).toBe('not_verified');

    const journal = readFileSync(run.journal, 'utf8');
    expect(journal).toContain('token:[]');
    expect(journal).toContain('_authToken=${NPM_TOKEN}');
    const runLog = renderRunLogText(readRunLog(run.journal));
    for (const [what, text] of [
      ['journal', journal],
      ['run log', runLog],
      ['progress', lines.join('\n')],
      ['run state and kept setup state', allText(run.dir)],
      ['dependency cache', allText(join(workdir, 'dep-cache'))],
      ['package managers’ cache', allText(join(workdir, 'package-cache'))],
    ] as const) {
      expect({ what, leaked: text.includes(TOKEN) }).toEqual({ what, leaked: false });
    }
    expect(allText(join(workdir, 'dep-cache'))).toContain('_authToken=${NPM_TOKEN}');
  });

  it('reaches setup’s environment through a descriptor: bwrap’s own command line (pid 1 inside) does not hold it', async () => {
    const ws = tempDir('gf-secrets-argv-');
    try {
      const command = 'echo "argv-has=$(tr "\\0" "\\n" < /proc/1/cmdline | grep -cF -- "$NPM_TOKEN") env-length=${#NPM_TOKEN} plain-in-argv=$(tr "\\0" "\\n" < /proc/1/cmdline | grep -cxF -- "$PLAIN_VALUE")"';
      // A plain variable (as every other one) is on bwrap's command line; the secret is not.
      const r = await sandbox.run({ command, workspace: ws, network: true, egressAllow: ['registry.test'], secrets: { NPM_TOKEN: TOKEN }, env: { PLAIN_VALUE: 'plain-visible-value' }, timeoutMs: 20_000 });
      expect(r.stdout.trim()).toBe(`argv-has=0 env-length=${TOKEN.length} plain-in-argv=1`);
    } finally {
      cleanup(ws);
    }
  });

  it('a setup secret without the repository’s allow-list is refused before anything runs', async () => {
    const ws = tempDir('gf-secrets-ws-');
    try {
      const r = sandbox.run({ command: 'true', workspace: ws, network: true, secrets: { NPM_TOKEN: TOKEN }, timeoutMs: 10_000 });
      await expect(r).rejects.toThrow("setup secrets (NPM_TOKEN) go only to a networked setup limited to the repository's network.allow");
      const offline = sandbox.run({ command: 'true', workspace: ws, secrets: { NPM_TOKEN: TOKEN }, egressAllow: ['registry.test'], timeoutMs: 10_000 });
      await expect(offline).rejects.toThrow('setup secrets');
    } finally {
      cleanup(ws);
    }
  });
});
