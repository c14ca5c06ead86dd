import { fenceFor, codeSpan } from '../../src/github/markdown.js';
import { renderCheckRunOutput } from '../../src/github/render-check-run.js';
import { renderPullRequestBody } from '../../src/github/render-pull-request.js';
import { renderRefusal } from '../../src/github/render-refusal.js';
import { renderStatusComment } from '../../src/github/render-status-comment.js';
import { newJobReport, type Evidence, type JobReport } from '../../src/github/report.js';
import { statusMarker } from '../../src/github/status-marker.js';

const LIMIT = 65_536;
const HINT = 'Comment `/agent retry [instructions]` to try again.';
const evidence: Evidence = {
  tree: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  command: 'npm test',
  exitCode: 0,
  durationMs: 4200,
  outputTail: 'Tests: 12 passed',
  commit: 'f'.repeat(40),
  branch: 'greenfix/issue-7',
};
const huge = (unit: string) => unit.repeat(Math.ceil(300_000 / unit.length));

function runningReport(): JobReport {
  const r = newJobReport('job-1', 'issue', 7, 60);
  r.phases[1] = { name: 'workspace', state: 'done', detail: 'main @ abc123' };
  r.phases[2] = { name: 'setup', state: 'skipped', detail: 'no setup command' };
  r.phases[3] = { name: 'agent', state: 'running', detail: '12 steps' };
  r.steps = 12;
  r.tokens = 34567;
  return r;
}

describe('statusMarker', () => {
  it('is a hidden HTML comment naming the job, and cannot be closed early', () => {
    expect(statusMarker('job-1')).toBe('<!-- greenfix:status job=job-1 -->');
    expect(statusMarker('x --> <b>')).toBe('<!-- greenfix:status job=x______b_ -->');
  });
});

describe('renderStatusComment', () => {
  it('shows each phase with its state icon and detail, and the usage', () => {
    const body = renderStatusComment(runningReport(), HINT);
    expect(body).toContain('- ✅ Queued');
    expect(body).toContain('- ✅ Workspace — main @ abc123');
    expect(body).toContain('- ⏭️ Setup — no setup command');
    expect(body).toContain('- ⏳ Agent — 12 steps');
    expect(body).toContain('- ⬜ Verification');
    expect(body).toContain('- ⬜ Pull request');
    expect(body).toContain('12 / 60 steps · 34,567 tokens');
    expect(body).not.toContain(HINT); // no outcome yet
    expect(body.startsWith('**greenfix** is fixing this issue.')).toBe(true);
  });

  it('published: links the PR and carries the evidence', () => {
    const r = runningReport();
    r.phases[5] = { name: 'pull_request', state: 'done', detail: '#12' };
    r.outcome = { status: 'published', sentence: 'Opened a PR whose tree passed npm test.', pullRequest: { number: 12, url: 'https://github.com/o/r/pull/12' }, evidence };
    const body = renderStatusComment(r, HINT);
    expect(body).toContain('[#12](https://github.com/o/r/pull/12)');
    expect(body).toContain(evidence.tree);
    expect(body).toContain(`git fetch origin greenfix/issue-7 && git rev-parse ${evidence.commit}^{tree}`);
  });

  it('failed: the reason, the last test output collapsed, and how to retry', () => {
    const r = runningReport();
    r.phases[4] = { name: 'verification', state: 'failed', detail: 'tests never passed' };
    r.outcome = { status: 'not_verified', sentence: 'The tests never passed; @octocat look.', outputTail: 'FAIL sum\n```\nexpected 3' };
    const body = renderStatusComment(r, HINT);
    expect(body.startsWith('**greenfix** worked on this issue.')).toBe(true);
    expect(body).toContain('- ❌ Verification — tests never passed');
    expect(body).toContain('The tests never passed; @\u200bocto');
    expect(body).toMatch(/<details><summary>Last test output<\/summary>\n\n````\nFAIL sum\n```\nexpected 3\n````\n\n<\/details>/);
    expect(body).toContain(HINT);
  });

  it('stays under GitHub\'s limit with enormous details, sentence and output', () => {
    const r = runningReport();
    r.phases = r.phases.map((p) => ({ ...p, detail: huge('d') }));
    r.outcome = { status: 'failed', sentence: huge('s '), outputTail: huge('`') };
    const body = renderStatusComment(r, HINT);
    expect(body.length).toBeLessThan(LIMIT);
    expect(body).toContain(HINT);
  });
});

describe('renderPullRequestBody', () => {
  const input = { issueNumber: 7, summary: 'Fixed the off-by-one in `sum`.', evidence, jobId: 'job-1', retryHint: HINT };

  it('has Fixes #n, the summary, the evidence, how to check it and how to retry', () => {
    const body = renderPullRequestBody(input);
    expect(body.startsWith('Fixes #7\n\nFixed the off-by-one in `sum`.')).toBe(true);
    expect(body).toContain(`- verified tree: \`${evidence.tree}\``);
    expect(body).toContain('- command: `npm test`');
    expect(body).toContain('- exit code: 0');
    expect(body).toContain('- duration: 4.2 s');
    expect(body).toContain('Tests: 12 passed');
    expect(body).toContain(`git fetch origin greenfix/issue-7 && git rev-parse ${evidence.commit}^{tree}`);
    expect(body).toContain(HINT);
    expect(body).toContain('<!-- greenfix:pr job=job-1 -->');
  });

  it('no issue: no Fixes line', () => {
    expect(renderPullRequestBody({ ...input, issueNumber: null })).not.toContain('Fixes #');
  });

  it('neutralises mentions, hidden comments and closing keywords in the model\'s summary', () => {
    const body = renderPullRequestBody({
      ...input,
      summary: 'Thanks @alice and @org/team (mail bob@example.com).<!-- hidden --> Also fixes #99 and closes other/repo#3.<!-- unterminated',
    });
    expect(body).toContain('@\u200balice');
    expect(body).toContain('@\u200borg/team');
    expect(body).toContain('bob@example.com');
    expect(body).not.toContain('hidden');
    expect(body).not.toContain('unterminated');
    expect(body).not.toMatch(/fixes #99/i);
    expect(body).not.toMatch(/closes other\/repo#3/i);
    expect(body).toContain('Fixes #7');
  });

  it('fences the output tail longer than any backtick run in it', () => {
    const body = renderPullRequestBody({ ...input, evidence: { ...evidence, outputTail: 'a ````` b' } });
    expect(body).toContain('``````\na ````` b\n``````');
  });

  it('stays under the limit with a huge summary and output, keeping the evidence', () => {
    const body = renderPullRequestBody({ ...input, summary: huge('@x '), evidence: { ...evidence, outputTail: huge('`') , command: huge('c') } });
    expect(body.length).toBeLessThan(LIMIT);
    expect(body).toContain(evidence.tree);
    expect(body).toContain(HINT);
    expect(body).not.toContain('elided'); // each part was clipped on its own, not the whole body
  });
});

describe('renderCheckRunOutput', () => {
  it('evidence: a title naming the command and tree, the facts, how to check, and the output', () => {
    const out = renderCheckRunOutput(evidence);
    expect(out.title).toBe('Verified: npm test passed on tree a1b2c3d4e5f6');
    expect(out.summary).toContain(evidence.tree);
    expect(out.summary).toContain('git rev-parse');
    expect(out.text).toContain('Tests: 12 passed');
  });

  it('failure: the title and reason, output only when there is some', () => {
    expect(renderCheckRunOutput({ title: 'CI fix limit reached', reason: 'Tried 3 times.' })).toEqual({ title: 'CI fix limit reached', summary: 'Tried 3 times.' });
    expect(renderCheckRunOutput({ title: 't', reason: 'r', outputTail: 'FAIL' }).text).toBe('```\nFAIL\n```');
  });

  it('within GitHub\'s limits whatever the input', () => {
    for (const out of [
      renderCheckRunOutput({ ...evidence, command: huge('x'), outputTail: huge('y\n') }),
      renderCheckRunOutput({ title: huge('t'), reason: huge('r'), outputTail: huge('`') }),
    ]) {
      expect(out.title.length).toBeLessThanOrEqual(255);
      expect(out.summary.length).toBeLessThan(65_535);
      expect((out.text ?? '').length).toBeLessThan(65_535);
    }
  });
});

describe('renderRefusal', () => {
  it.each([
    ['unauthorized', { sender: 'eve', permission: 'read' }, /write, maintain or admin permission.*\(yours: read\)/],
    ['fork', { sender: 'eve' }, /comes from a fork/],
    ['ci_limit', { sender: 'ada', attempts: 3, maxAttempts: 3 }, /3 times \(the limit is 3\).*`\/agent retry/],
    ['unknown_command', { sender: 'ada', command: '/agent frobnicate' }, /`\/agent frobnicate`.*`\/agent retry \[instructions\]`/],
    ['base_failing', { sender: 'ada', checks: ['test', 'lint'], baseRef: 'main' }, /`test`, `lint` also fail on `main`/],
  ] as const)('%s', (code, details, expected) => {
    const body = renderRefusal(code, details);
    expect(body.startsWith(`👋 @${details.sender} `)).toBe(true);
    expect(body).toMatch(expected);
    expect(body).toContain(`<sub>greenfix · ${code}</sub>`);
  });

  it('uses the caller\'s message instead, with its mentions neutralised, and stays under the limit', () => {
    const body = renderRefusal('whatever', { sender: 'ada', message: 'ping @everyone' });
    expect(body).toBe('👋 @ada ping @\u200beveryone\n\n<sub>greenfix · whatever</sub>');
    expect(renderRefusal('x', { message: huge('m') }).length).toBeLessThan(LIMIT);
  });

  it('does not mention a sender whose name is not a GitHub login', () => {
    expect(renderRefusal('fork', { sender: 'a b <c>' }).startsWith('👋 This pull request')).toBe(true);
  });
});

describe('markdown helpers', () => {
  it('fenceFor and codeSpan outgrow backtick runs', () => {
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('````')).toBe('`````');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
  });
});
