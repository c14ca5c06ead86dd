import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { createGitHost } from '../../src/github/octokit-host.js';
import type { GitHost } from '../../src/github/types.js';

export const API = 'https://api.github.com';
export const OWNER = 'octo';
export const REPO = 'widgets';

/**
 * A real ProbotOctokit: its retry plugin stays on (with a 1 ms base delay, so a retried GET does
 * not slow the suite); throttling is off only because it spaces writes a second apart.
 */
export function testOctokit(throttle = false): ProbotOctokit {
  return new ProbotOctokit({ auth: { token: 'test-token' }, retry: { retryAfterBaseValue: 1 }, ...(throttle ? {} : { throttle: { enabled: false } }) });
}

export interface Fixture {
  host: GitHost;
  sleeps: number[];
  /** `METHOD path` of every request GitHub's mock saw, in order. */
  seen: string[];
}

export function fixture(createAttempts = 3, throttle = false): Fixture {
  const sleeps: number[] = [];
  const seen: string[] = [];
  const host = createGitHost(testOctokit(throttle), { owner: OWNER, repo: REPO }, {
    createAttempts,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { host, sleeps, seen };
}

/** A nock scope on the API that records each request it answers as `METHOD /path` (no query). */
export function api(seen: string[]): nock.Scope {
  const scope = nock(API);
  scope.on('request', (req: { method?: string; path?: string }) => {
    seen.push(`${req.method} ${(req.path ?? '').split('?')[0]}`);
  });
  return scope;
}

export function setupNock(): void {
  nock.disableNetConnect();
}

export function teardownNock(): void {
  nock.cleanAll();
  nock.enableNetConnect();
}
