import { neutralise } from '../../src/util/neutralise.js';
import { splitMarkdown } from '../../src/util/markdown-code.js';

const Z = '\u200b';
const md = (text: string) => neutralise(text, { for: 'markdown' });
const commit = (text: string) => neutralise(text, { for: 'commit' });

/** Live forms GitHub acts on when they stand in prose (the cases below say where they stand). */
const LIVE_MENTION = /(?<![A-Za-z0-9_])@[A-Za-z0-9]/;

describe('neutralise: mentions (GFM 6.1 code spans decide what is code)', () => {
  it.each([
    ['a user, a team, at line start', '@a hi @b-c, @org/team'],
    ['a doubled @ (the second one is a mention)', '@@user'],
    ['an unmatched backtick before it (no code span: GFM 6.1)', '`@user and more'],
    ['backtick runs of unequal length (no code span)', '``@user` here'],
    ['a backslash-escaped opening backtick', '\\`@user`'],
    ['a span that crosses a line, then prose', '`a\nb` @user `c`'],
    ['a "code span" inside a table row (cells split it first)', '| `@user | y` |'],
    ['a backtick inside a link destination', '[x](/u`) @user `'],
    ['a backtick inside an autolink', '<https://a/`b> @user `'],
    ['a backtick inside a URL GitHub autolinks', 'see http://a.com/`b @user `c`'],
    ['an HTML character reference', '&#64;user &commat;user'],
    ['a fence inside a block quote (not tracked: neutralised)', '> ```\n> @user\n> ```'],
  ])('%s', (_what, input) => {
    const out = md(input);
    expect(out.replace(/&\u200b#64;|&\u200bcommat;/g, '')).not.toMatch(LIVE_MENTION);
    expect(out.replaceAll(Z, '')).toBe(input);
  });

  it('e-mail addresses and a lone @ are not mentions and stay as they are', () => {
    expect(md('mail x@y.z, or @ alone, or a_@b')).toBe('mail x@y.z, or @ alone, or a_@b');
  });

  it('a real, closed code span keeps its text verbatim, even the same line has prose mentions', () => {
    expect(md('run `npm i @types/node` then ``a ` @b`` and ping @c')).toBe(`run \`npm i @types/node\` then \`\`a \` @b\`\` and ping @${Z}c`);
  });

  it('a fenced block opened at column 0 is code up to its closing fence (same char, at least as long)', () => {
    const input = '```ts\n@keep\n``\n```\n@live\n~~~~\n@kept\n~~~\n~~~~~\n@live2';
    expect(md(input)).toBe(`\`\`\`ts\n@keep\n\`\`\n\`\`\`\n@${Z}live\n~~~~\n@kept\n~~~\n~~~~~\n@${Z}live2`);
  });

  it('an unclosed fence runs to the end of the text (GFM 4.5)', () => {
    expect(md('text @a\n```\n@b\n\n@c')).toBe(`text @${Z}a\n\`\`\`\n@b\n\n@c`);
  });

  it('a backtick fence whose info string has a backtick is no fence', () => {
    expect(md('``` a`b\n@x\n```')).not.toContain('\n@x');
  });

  it('an indented fence (in a list item) is not trusted as code: its mentions are neutralised', () => {
    expect(md('- a\n  ```\n  @x\n  ```')).toBe(`- a\n  \`\`\`\n  @${Z}x\n  \`\`\``);
  });

  it('a fence inside what was an HTML block is safe: the HTML block cannot exist in the output', () => {
    const out = md('<div>\n```\n@x\n```\n</div>');
    expect(out).toBe(`<${Z}div>\n\`\`\`\n@x\n\`\`\`\n<${Z}/div>`);
    // A line starting with `<` + ZWSP starts no HTML block (GFM 4.6), so the fence is a fence.
    expect(out.split('\n')[0]).not.toMatch(/^ {0,3}<[A-Za-z/!?]/);
  });

  it('is idempotent and only ever adds zero-width spaces (besides comments and controls)', () => {
    const input = '@a `@b` `@c\n![i](https://h/x) <img src=x> fixes #1 &#64;d\n```\n@e\n```';
    expect(md(md(input))).toBe(md(input));
    expect(md(input).replaceAll(Z, '')).toBe(input);
  });
});

describe('neutralise: images and raw HTML that load a URL when viewed', () => {
  it.each([
    ['inline image', '![](https://host/?d=secret)'],
    ['image with alt and title', '![alt](https://host/a.png "t")'],
    ['reference-style image', '![alt][r]\n\n[r]: https://host/a.png'],
    ['shortcut reference image', '![r]\n\n[r]: https://host/a.png'],
    ['image inside a link', '[![b](https://host/b.svg)](https://x)'],
  ])('%s becomes a link GitHub does not fetch', (_what, input) => {
    const out = md(input);
    expect(out).not.toMatch(/!\[/);
    expect(out).toContain(`!${Z}[`);
  });

  it.each([
    ['<img src>', '<img src="https://host/?d=1">'],
    ['<picture><source srcset>', '<picture><source srcset="https://host/a.png"></picture>'],
    ['<video poster>', '<video poster="https://host/p.png"></video>'],
    ['an HTML block', '<div>\n<img src=https://host/x>\n</div>'],
    ['a closing tag and a declaration', '</p><!DOCTYPE x><?php ?>'],
    ['a tag split over lines', '<img\nsrc="https://host/x">'],
  ])('%s is shown as text', (_what, input) => {
    const out = md(input);
    expect(out).not.toMatch(/<[A-Za-z/!?]/);
    expect(out.replaceAll(Z, '')).toBe(input);
  });

  it('HTML inside a fenced block stays verbatim: it is shown as code', () => {
    expect(md('```html\n<img src="x">\n```')).toBe('```html\n<img src="x">\n```');
  });

  it('HTML comments go, terminated or not; a comparison stays', () => {
    expect(md('a<!-- x -->b<!-- rest @x')).toBe('ab');
    expect(md('if a < b then')).toBe('if a < b then');
  });
});

describe('neutralise: closing keywords', () => {
  it.each([
    'closes #1',
    'Fixes other/repo#1',
    'resolves: #2',
    'fixed https://github.com/o/r/issues/1',
    'Resolve https://ghe.example/o/r/pull/3',
    'fixes \\#3',
    'fixes [#4](https://github.com/o/r/issues/4)',
    'in code too: `closes #5`',
  ])('%s loses its closing power', (input) => {
    const out = md(input);
    expect(out).not.toMatch(/\b(close[sd]?|fix(e[sd])?|resolve[sd]?)[\s:]*\[?\\?(#|\w+\/\w+#|https?:)/i);
    expect(out.replaceAll(Z, '')).toBe(input);
  });

  it('plain references and words that merely end in a keyword stay', () => {
    expect(md('see #5, prefixes #6, fix the bug')).toBe('see #5, prefixes #6, fix the bug');
  });
});

describe('neutralise for a commit message (plain text)', () => {
  it('no code is trusted: a backticked mention is neutralised too', () => {
    expect(commit('`@user` and @org/team')).toBe(`\`@${Z}user\` and @${Z}org/team`);
  });

  it('terminal escapes and bidi overrides go; newlines and tabs stay', () => {
    expect(commit('a\u001b[31mred\u0007\tb\nc\u202ed')).toBe('a[31mred\tb\ncd');
  });
});

describe('splitMarkdown', () => {
  it('joins back to its input', () => {
    const input = 'a `b` c\n\n```\nx\n```\n- `y` [z]\n';
    expect(splitMarkdown(input).map((p) => p.text).join('')).toBe(input);
  });
});
