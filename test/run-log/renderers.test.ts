import { HtmlRenderer, Parser } from 'commonmark';
import type { JournalRecord } from '../../src/agent/journal-schema.js';
import { buildRunLog } from '../../src/run-log/run-log.js';
import { renderRunLogMarkdown } from '../../src/run-log/render-markdown.js';
import { renderRunPage } from '../../src/run-log/render-html.js';
import { checkRunLink, runLinkKey, signRunPath } from '../../src/run-log/run-link.js';
import { redactText } from '../../src/util/redact-text.js';

/** A hostile run: outputs that try to break out of code, mention people, embed HTML and show secrets. */
function hostileRecords(): JournalRecord[] {
  const at = 1_000;
  const args = JSON.stringify({ command: 'cat notes | tee `x`' });
  return [
    { type: 'start', at, task: 'Fix @octocat #1 ```', taskMessage: 't', systemPrompt: 's', model: 'm', config: {} },
    { type: 'assistant', at: at + 10, step: 1, message: { role: 'assistant', content: 'closes #9 <img src=x>', toolCalls: [{ id: 'a', name: 'run', arguments: args }] }, usage: { promptTokens: 5, completionTokens: 5 } },
    { type: 'tool_start', at: at + 11, step: 1, callId: 'a', name: 'run', args },
    {
      type: 'tool_end',
      at: at + 20,
      callId: 'a',
      name: 'run',
      result: { ok: true, output: 'exit code: 0\n````\n@octocat ![x](https://evil.example/x.png) <script>alert(1)</script>\nAuthorization: Bearer abcdef123456\nsecret-of-the-app' },
    },
  ];
}

describe('the renderers on hostile text', () => {
  it('Markdown keeps every untrusted text inside code: no fence escape, no live mention or image', () => {
    const md = renderRunLogMarkdown(buildRunLog(hostileRecords(), { secrets: ['secret-of-the-app'] }));
    // Outside code spans and fences nothing of the output is left.
    const outside = md.replace(/^(`{3,})[a-z]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)[^`\n]*?\1/g, '');
    expect(outside).not.toMatch(/@octocat|!\[|<script|<img|closes #9/);
    expect(md).toContain('`````text\nexit code: 0\n````\n'); // a fence longer than the output's four backticks
    expect(md).toContain('| `` cat notes \\| tee `x` `` |'); // a code span past the backtick, the pipe escaped
    expect(md).not.toContain('abcdef123456');
    expect(md).not.toContain('secret-of-the-app');
    expect(md).toContain('Authorization: Bearer [redacted]');
    // Rendered by the CommonMark reference implementation: outside <pre>/<code> nothing is left.
    const html = new HtmlRenderer().render(new Parser().parse(md));
    expect(html).not.toMatch(/<(img|script|iframe)\b/i);
    const prose = html.replace(/<pre[\s\S]*?<\/pre>/g, ' ').replace(/<code[\s\S]*?<\/code>/g, ' ');
    expect(prose).not.toMatch(/@octocat|evil\.example|closes #9|&lt;script/);
  });

  it('HTML escapes everything, allows only its own style, and reloads itself only while live', () => {
    const log = buildRunLog(hostileRecords(), { secrets: ['secret-of-the-app'] });
    const done = renderRunPage({ jobId: 'job-1', log, diff: '--- a/x\n+++ b/x\n-<b>\n+</pre><script>x</script>', live: false });
    expect(done.html).not.toMatch(/<script|<img|<b>/);
    expect(done.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(done.html).toContain('<span class="add">+&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;</span>');
    expect(done.html).not.toContain('http-equiv="refresh"');
    expect(done.csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    const live = renderRunPage({ jobId: 'job-1', log, diff: null, live: true });
    expect(live.html).toContain('<meta http-equiv="refresh" content="5">');
    expect(live.html).toContain('this page reloads every 5 seconds');
  });
});

describe('signed run links', () => {
  const key = runLinkKey(undefined, 'webhook-secret');
  const now = 1_700_000_000_000;
  const parse = (path: string) => {
    const url = new URL(path, 'http://x');
    return checkRunLink(key, url.pathname, url.searchParams, now);
  };

  it('accepts its own link until it expires, and nothing else', () => {
    const path = signRunPath(key, 'job-1', now + 60_000);
    expect(parse(path)).toEqual({ ok: true, jobId: 'job-1' });
    expect(checkRunLink(key, new URL(path, 'http://x').pathname, new URL(path, 'http://x').searchParams, now + 60_000)).toEqual({ ok: false });
    expect(parse(path.replace('job-1', 'job-2'))).toEqual({ ok: false });
    expect(parse(path.replace(/exp=\d+/, `exp=${Math.floor(now / 1000) + 999_999}`))).toEqual({ ok: false });
    expect(parse('/runs/job-1')).toEqual({ ok: false });
    expect(parse(`${path}x`)).toEqual({ ok: false });
    const other = runLinkKey('a-separate-link-secret', 'webhook-secret');
    expect(checkRunLink(other, '/runs/job-1', new URL(path, 'http://x').searchParams, now)).toEqual({ ok: false });
    // The derived key is not the webhook secret itself.
    expect(key.key.toString('utf8')).not.toBe('webhook-secret');
  });
});

describe('redactText', () => {
  it('removes known secrets and token shapes, keeps ordinary text', () => {
    const text = [
      'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
      'sk-proj-abcdefghijklmnop1234',
      'https://x-access-token:ghs_verysecretvalue0123456789abc@github.com/o/r.git',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----',
      'password=hunter22',
      'the-known-secret',
      'npm test: 3 passed',
    ].join('\n');
    const out = redactText(text, ['the-known-secret']);
    for (const gone of ['ghp_0123', 'github_pat_11', 'sk-proj', 'ghs_very', 'MIIE', 'hunter22', 'the-known-secret']) expect(out).not.toContain(gone);
    expect(out).toContain('npm test: 3 passed');
    expect(out).toContain('password=[redacted]');
  });
});
