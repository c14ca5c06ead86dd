import { findEdit, stripLineNumbers } from '../../../src/agent/tools/edit-strategies.js';
import { globToRegExp, matchesGlob } from '../../../src/agent/tools/glob.js';

const apply = (text: string, old: string, neu: string): { text: string; strategy: string } | string => {
  const o = findEdit(text, old, neu);
  if (o.kind === 'unique') return { text: text.slice(0, o.match.start) + o.match.replacement + text.slice(o.match.end), strategy: o.match.strategy };
  return o.kind === 'ambiguous' ? `ambiguous ${o.strategy}: ${o.lines.join(',')}` : 'none';
};

describe('findEdit', () => {
  it('combines prefix stripping, CRLF and indentation shift, touching only the region', () => {
    const text = 'a\r\n\tif (x) {\r\n\t\ty();\r\n\t}\r\nb\r\n';
    const r = apply(text, '     2 │ if (x) {\n     3 │ \ty();\n     4 │ }', 'if (x) {\n\tz();\n}');
    expect(r).toEqual({ text: 'a\r\n\tif (x) {\r\n\t\tz();\r\n\t}\r\nb\r\n', strategy: 'line-number prefixes stripped + indentation shifted' });
  });

  it('maps spaces to the file indentation for a single line', () => {
    expect(apply('\tfoo();\n', '  foo();', '  bar();')).toEqual({ text: '\tbar();\n', strategy: 'indentation shifted' });
  });

  it('removes whole lines when old ends with a newline', () => {
    expect(apply('a  \r\nb\r\nc\r\n', 'a\nb\n', '')).toEqual({ text: 'c\r\n', strategy: 'trailing whitespace ignored' });
  });

  it('reports ambiguity of a forgiving strategy instead of guessing', () => {
    expect(apply('  x = 1 \n  x = 1  \n', 'x = 1', 'x = 2')).toBe('ambiguous exact: 1,2');
    expect(apply('x = 1 \ny\nx = 1  \n', 'x = 1\n', 'x = 2\n')).toBe('ambiguous trailing whitespace ignored: 1,3');
    expect(apply('abc\n', 'xyz', 'q')).toBe('none');
  });

  it('strips line numbers only when every non-blank line has one', () => {
    expect(stripLineNumbers('  12 │ a\n\n  13 │ b')).toBe('a\n\nb');
    expect(stripLineNumbers('  12 │ a\nb')).toBeNull();
  });
});

describe('glob', () => {
  it('matches like ripgrep globs', () => {
    expect(matchesGlob('src/a/b.ts', '*.ts')).toBe(true);
    expect(matchesGlob('src/a/b.ts', 'src/**/*.ts')).toBe(true);
    expect(matchesGlob('b.ts', 'src/**/*.ts')).toBe(false);
    expect(matchesGlob('src/b.tsx', '*.{ts,js}')).toBe(false);
    expect(matchesGlob('src/b.js', '*.{ts,js}')).toBe(true);
    expect(matchesGlob('src/b.js', '!*.js')).toBe(false);
    expect(globToRegExp('a?.[ch]').test('ab.c')).toBe(true);
  });
});
