import { existsSync } from 'node:fs';
import { guardSyntax, syntaxProblem } from '../../../src/agent/tools/syntax-guard.js';

describe('syntax guard (parsed in a short-lived node child)', () => {
  it('refuses an edit that breaks a TypeScript file that parsed, naming line and column', async () => {
    const refusal = await guardSyntax('src/a.ts', 'export const a = 1;\n', 'export const a = (1;\n');
    expect(refusal).toMatch(/^rejected: this edit would make src\/a\.ts unparsable \(line 1, column 20: '\)' expected\.\)/);
  });

  it('lets an already broken file be edited, and a new file that parses be written', async () => {
    expect(await guardSyntax('src/a.ts', 'const = ;\n', 'const x = (;\n')).toBeNull();
    expect(await guardSyntax('src/b.tsx', null, 'export const B = () => <div>{1}</div>;\n')).toBeNull();
  });

  it('refuses a new JavaScript file that does not parse', async () => {
    expect(await guardSyntax('lib/c.mjs', null, 'function (\n')).toMatch(/^rejected: the new file would make lib\/c\.mjs unparsable \(line 1/);
  });

  it('parses only: a script that would have effects is not run', async () => {
    const marker = `/tmp/greenfix-guard-${process.pid}-${Date.now()}`;
    const text = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`;
    expect(await syntaxProblem('x.js', text)).toBeNull();
    expect(existsSync(marker)).toBe(false);
  });

  it('checks JSON in-process and leaves other file types alone', async () => {
    expect(await syntaxProblem('package.json', '{"a": }')).toMatchObject({ line: 1 });
    expect(await syntaxProblem('notes.md', '(((')).toBeNull();
  });
});
