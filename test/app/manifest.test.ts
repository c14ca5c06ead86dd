import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'yaml';

/** app.yml, parsed with the same YAML library Probot's setup flow uses. */
const manifest = parse(readFileSync(new URL('../../app.yml', import.meta.url), 'utf8'));

describe('app.yml', () => {
  it('names a private app with a homepage', () => {
    expect(manifest.name).toBe('greenfix');
    expect(manifest.public).toBe(false);
    expect(manifest.url).toBe('https://github.com/greenfix/greenfix');
    expect(manifest.description).toMatch(/tests/);
  });

  it('asks for exactly the permissions greenfix uses', () => {
    expect(manifest.default_permissions).toEqual({
      contents: 'write',
      pull_requests: 'write',
      issues: 'write',
      checks: 'write',
      actions: 'read',
      metadata: 'read',
    });
  });

  it('subscribes to the events the triggers handle, all real webhook events', () => {
    expect([...manifest.default_events].sort()).toEqual(
      ['check_run', 'issue_comment', 'issues', 'pull_request', 'pull_request_review', 'pull_request_review_comment', 'push', 'workflow_run'].sort(),
    );
    const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
      name: string;
    }>;
    const known = new Set(examples.map((e) => e.name));
    for (const event of manifest.default_events) expect(known.has(event)).toBe(true);
  });

  it('leaves hook_attributes to the setup page (it sets the webhook URL)', () => {
    expect(manifest).not.toHaveProperty('hook_attributes');
  });
});

describe('.env.example', () => {
  const text = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
  const lines = text.split('\n');

  it('lists every variable of the deployment contract (DESIGN §3.5), each under a comment', () => {
    const contract = [
      'APP_ID', 'PRIVATE_KEY', 'PRIVATE_KEY_PATH', 'WEBHOOK_SECRET', 'PORT', 'HOST', 'LOG_LEVEL',
      'GHE_HOST', 'GHE_PROTOCOL', 'WEBHOOK_PROXY_URL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY',
      'GREENFIX_MODEL', 'GREENFIX_DB', 'GREENFIX_WORKDIR', 'GREENFIX_CONCURRENCY', 'GREENFIX_ROLE',
      'REDIS_URL', 'GREENFIX_SANDBOX',
    ];
    for (const name of contract) {
      const at = lines.findIndex((l) => l.startsWith(`${name}=`));
      expect({ name, found: at >= 0 }).toEqual({ name, found: true });
      expect({ name, comment: lines[at - 1]?.startsWith('# ') }).toEqual({ name, comment: true });
    }
  });

  it('holds no secret values', () => {
    for (const name of ['PRIVATE_KEY', 'WEBHOOK_SECRET', 'OPENAI_API_KEY', 'APP_ID']) {
      expect(lines).toContain(`${name}=`);
    }
  });
});

/** The node flags of the CLI's shebang (`#!/usr/bin/env -S node <flags>`): greenfix's flags wherever it starts. */
function shebangFlags(): string[] {
  const first = readFileSync(new URL('../../src/cli/main.ts', import.meta.url), 'utf8').split('\n', 1)[0]!;
  const words = /^#!\/usr\/bin\/env -S node((?: \S+)*)$/.exec(first)?.[1];
  if (words === undefined) throw new Error(`src/cli/main.ts starts with ${first}`);
  return words.trim().split(' ').filter(Boolean);
}

describe('Dockerfile', () => {
  const text = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');

  it('copies only files that exist, including app.yml for the setup flow', () => {
    const sources = [...text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(sources).toContain('app.yml');
    for (const source of sources) {
      expect({ source, exists: existsSync(new URL(`../../${source}`, import.meta.url)) }).toEqual({ source, exists: true });
    }
  });

  it('runs `greenfix serve` under tini as a non-root user, port 3000, with the node flags of the CLI’s shebang (and npm start)', () => {
    expect(text).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    const flags = shebangFlags();
    expect(flags).toContain('--v8-pool-size=1');
    expect(JSON.parse(/^CMD (\[.*\])$/m.exec(text)?.[1] ?? 'null')).toEqual(['node', ...flags, 'dist/src/cli/main.js', 'serve']);
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe(['node', ...flags, 'dist/src/cli/main.js', 'serve'].join(' '));
    expect(text).toMatch(/^USER greenfix$/m);
    expect(text).toMatch(/^EXPOSE 3000$/m);
  });

  it('keeps the env file the setup page writes on the volume, and names the sandbox flags', () => {
    const volume = /^VOLUME \["([^"]+)"\]$/m.exec(text)?.[1];
    expect(volume).toBe('/var/lib/greenfix');
    expect(text).toMatch(new RegExp(`GREENFIX_ENV_FILE=${volume}/\\.env`));
    for (const flag of ['seccomp=unconfined', 'apparmor=unconfined', 'systempaths=unconfined', 'unmask=ALL', '--privileged']) expect(text).toContain(flag);
  });

  it('.dockerignore lets in only what the Dockerfile copies: never .env, node_modules, .git or dist', () => {
    const rules = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(rules[0]).toBe('*');
    const allowed = new Set(rules.slice(1).map((r) => r.replace(/^!/, '').replace(/\/$/, '')));
    const sources = [...text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    for (const source of sources) expect({ source, allowed: allowed.has(source) }).toEqual({ source, allowed: true });
    for (const secret of ['.env', 'node_modules', '.git', 'dist', '.greenfix']) expect(allowed.has(secret)).toBe(false);
  });
});
