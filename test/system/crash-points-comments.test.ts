import { afterAll, describe, it } from '@jest/globals';
import { crashAndResume, type AtCrash } from './crash-cycle.js';
import nock from 'nock';

/** kill -9 at the last publisher points and around the status comment's writes (see crash-points.test.ts). */
const CASES: Array<[string, AtCrash]> = [
  ['after_pull_request', { pushes: 1, pulls: 1, checkRuns: 0}],
  ['before_check_run', { pushes: 1, pulls: 1, checkRuns: 0}],
  ['after_check_run', { pushes: 1, pulls: 1, checkRuns: 1}],
  ['after_publish', { pushes: 1, pulls: 1, checkRuns: 1 }],
  // The first write creates the comment: before it there is none, after it one.
  ['before_comment:1', { pushes: 0, pulls: 0, comments: 0 }],
  ['after_comment:1', { pushes: 0, pulls: 0, comments: 1 }],
  // A later write edits the comment in place (mid-job: how far the agent got varies).
  ['after_comment:3', { comments: 1 }],
];

describe('kill -9 at a crash point, then a restart', () => {
  it.concurrent.each(CASES)('at %s: one branch, one commit of the verified tree, one PR, one comment, one check run', (crashAt, atCrash) => crashAndResume(crashAt, atCrash), 90_000);
});

// fake-github.js (through crash-cycle/serve-fixture) loads nock, which patches node:http for this whole file.
afterAll(() => nock.restore());
