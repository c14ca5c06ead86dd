import { readFileSync } from 'node:fs';
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
      ['check_run', 'issue_comment', 'issues', 'pull_request', 'workflow_run'].sort(),
    );
    const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as Array<{
      name: string;
    }>;
    const known = new Set(examples.map((e) => e.name));
    for (const event of manifest.default_events) expect(known.has(event)).toBe(true);
  });

  it('leaves hook_attributes to Probot (a block here would replace its webhook URL)', () => {
    expect(manifest).not.toHaveProperty('hook_attributes');
  });
});
