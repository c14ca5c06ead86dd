import { describe, expect, it } from '@jest/globals';
import { HtmlRenderer, Parser } from 'commonmark';
import { neutralise } from '../../src/util/neutralise.js';

/**
 * The neutraliser checked against a real CommonMark renderer (commonmark.js, the reference
 * implementation; GFM is CommonMark plus tables, autolinks, strikethrough and task lists): after
 * neutralising, the rendered HTML has no live mention outside <code>/<pre>, and no element that
 * loads a URL when viewed. Inputs: hand-written cases from the spec's rules, then a seeded fuzz of
 * the constructs that decide what is code (backtick runs, fences, indentation, containers, HTML).
 */
const parser = new Parser();
const renderer = new HtmlRenderer();
const render = (md: string) => renderer.render(parser.parse(md));

function problems(html: string): string[] {
  const found: string[] = [];
  if (/<(img|picture|source|video|audio|iframe|object|embed)\b/i.test(html)) found.push('loads a URL');
  const prose = html
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<code[\s\S]*?<\/code>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  const mention = /(?<![A-Za-z0-9_])@[A-Za-z0-9]/.exec(prose);
  if (mention) found.push(`live mention near "${prose.slice(Math.max(0, mention.index - 20), mention.index + 10)}"`);
  return found;
}

const CASES = [
  '`@a',
  '`a\nb` @c `d`',
  '\\`@a`',
  '> ```\n> @a\n> ```\n@b\n```\n@c',
  '- a\n  ```\n  @b\n\n```\n@c\n```\n@d',
  '<div>\n```\n@a\n```\n</div>\n@b',
  '    `@a\n`@b` @c `',
  '<pre>\n\n```\n@a\n```\n</pre>\n@b `',
  '[x](/u`) @a `',
  '<https://a/`b> @a `',
  '[r]: /u "`"\n@a `',
  '&#64;a &commat;b &#x40;c',
  '![i](https://h/x) ![a][r] ![r]\n\n[r]: https://h/y',
  '<img src="https://h/x"> <picture><source srcset="https://h/p"></picture> <video poster="https://h/v">',
  '<img\nsrc=https://h/x>',
  '~~~\n@kept\n~~~\n@a',
  '# `a\n@b `',
  'a `\n- @b `',
  '1. `x\n2. @y `',
];

describe('neutralise → CommonMark HTML', () => {
  it.each(CASES)('%j renders with nothing live', (input) => {
    expect(problems(render(input))).not.toEqual([]); // the attack works on the raw text…
    expect(problems(render(neutralise(input, { for: 'markdown' })))).toEqual([]); // …and not after
  });

  it('a seeded fuzz of 3,000 mixes of code, container and HTML syntax: nothing live after', () => {
    const parts = ['`', '``', '```', '~~~', '\n', '\n\n', '@u', '@@v', '> ', '- ', '1. ', '    ', '  ', '| ', '[', ']', '(', ')', '![', '<img src=x>', '<div>', '</div>', '\\', 'http://a.b/', '&#64;w', '#', 'x ', ' ', '](/u', '[r]: /u "', '"', '\n---\n', '***'];
    let seed = 42;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const failures: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const input = Array.from({ length: 4 + Math.floor(next() * 20) }, () => parts[Math.floor(next() * parts.length)]).join('');
      const found = problems(render(neutralise(input, { for: 'markdown' })));
      if (found.length > 0) failures.push(`${JSON.stringify(input)}: ${found.join(', ')}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it.each(['`@a`', '``a ` @b``', '```\n@kept', 'use `npm i @types/node` here', '```\nnpm i @types/node\n```', '~~~~\n@a\n~~~\n~~~~'])(
    'real code %j renders exactly as written',
    (input) => {
      expect(problems(render(input))).toEqual([]);
      expect(render(neutralise(input, { for: 'markdown' }))).toBe(render(input));
    },
  );
});
