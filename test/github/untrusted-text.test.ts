import { untrustedMarkdown } from '../../src/github/untrusted-text.js';
import { neutraliseClosingKeywords, neutraliseMentions, stripHtmlComments } from '../../src/util/neutralise.js';

describe('untrusted text', () => {
  it('mentions: users, teams, at line start; not e-mail addresses or a lone @', () => {
    expect(neutraliseMentions('@a hi @b-c, @org/team')).toBe('@\u200ba hi @\u200bb-c, @\u200borg/team');
    expect(neutraliseMentions('x@y.z and @ alone')).toBe('x@y.z and @ alone');
  });

  it('closing keywords lose their power, plain references stay', () => {
    const out = neutraliseClosingKeywords('Fixes #1. resolved: #2, Closes o/r#3, fix https://github.com/o/r/issues/4; see #5');
    expect(out).not.toMatch(/\b(fixes|resolved|closes|fix)\s*:?\s+(#|o\/r#|https)/i);
    expect(out).toContain('see #5');
    expect(out.replace(/\u200b/g, '')).toBe('Fixes #1. resolved: #2, Closes o/r#3, fix https://github.com/o/r/issues/4; see #5');
  });

  it('HTML comments go, terminated or not', () => {
    expect(stripHtmlComments('a<!-- x -->b<!--\nmulti\n-->c<!-- rest')).toBe('abc');
  });

  it('clips to the size asked, saying so', () => {
    const out = untrustedMarkdown('z'.repeat(10_000), 1000);
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out).toMatch(/characters cut\]\*$/);
  });
});
