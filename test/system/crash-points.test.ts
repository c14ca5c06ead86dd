import { afterAll, describe, it } from '@jest/globals';
import { crashAndResume, MID_PUSH, type AtCrash } from './crash-cycle.js';
import nock from 'nock';

/**
 * kill -9 at the agent's and the publisher's crash points, and in the middle of the push (the
 * comment points are in crash-points-comments.test.ts, so jest's two workers share the cycles).
 * Each cycle is two real `greenfix serve` processes; the cycles run concurrently, each with its
 * own dirs and ports.
 */
const NOTHING_PUBLISHED: AtCrash = { pushes: 0, pulls: 0, checkRuns: 0 };
const CASES: Array<[string, AtCrash]> = [
  ['after_model', NOTHING_PUBLISHED],
  ['before_tool', NOTHING_PUBLISHED],
  ['after_tool', NOTHING_PUBLISHED],
  ['before_publish', NOTHING_PUBLISHED],
  ['before_push', NOTHING_PUBLISHED],
  [MID_PUSH, NOTHING_PUBLISHED],
  ['after_push', { pushes: 1, pulls: 0, checkRuns: 0 }],
  ['before_pull_request', { pushes: 1, pulls: 0, checkRuns: 0 }],
];

describe('kill -9 at a crash point, then a restart', () => {
  it.concurrent.each(CASES)('at %s: one branch, one commit of the verified tree, one PR, one comment, one check run', (crashAt, atCrash) => crashAndResume(crashAt, atCrash), 90_000);
});

// fake-github.js (through crash-cycle/serve-fixture) loads nock, which patches node:http for this whole file.
afterAll(() => nock.restore());
