import nock from 'nock';
import { Context, ProbotOctokit } from 'probot';
import { examplePayload } from '../triggers/payloads.js';

/**
 * `() => context.config('greenfix.yml')` through Probot's real Context and config plugin, for
 * Codertocat/Hello-World (the webhook examples' repository). Answer the contents API with nock.
 */
export const CONFIG_CONTENTS_PATH = '/repos/Codertocat/Hello-World/contents/.github%2Fgreenfix.yml';

export function probotConfigReader(): () => Promise<unknown> {
  const octokit = new ProbotOctokit({ auth: { token: 'test-token' }, retry: { enabled: false }, throttle: { enabled: false } });
  const event = { id: 'delivery-1', name: 'issues', payload: examplePayload('issues', 'labeled') };
  const context = new Context(event as never, octokit, {} as never);
  return () => context.config('greenfix.yml');
}

/** GitHub's raw-contents answer for `.github/greenfix.yml`. */
export function serveConfigFile(text: string): void {
  nock('https://api.github.com').get(CONFIG_CONTENTS_PATH).reply(200, text, { 'content-type': 'text/plain; charset=utf-8' });
}
