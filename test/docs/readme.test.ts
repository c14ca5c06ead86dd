import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { docFiles } from './doc-commands.js';

const ROOT = resolve('.');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('the README', () => {
  it('is one screen of start: under 150 lines, the two commands, the app, a local fix, how long the tests take', () => {
    expect(README.split('\n').length).toBeLessThan(150);
    expect(README).toContain('npm ci && npm start');
    expect(README).toContain('npm ci && npm test');
    expect(README).toMatch(/about \d+ minutes/);
    expect(README).toMatch(/tunnel/i);
    expect(README).toContain('greenfix fix --repo');
  });

  it('names every event app.yml subscribes to, for registering by hand', () => {
    const events = (parse(readFileSync(join(ROOT, 'app.yml'), 'utf8')) as { default_events: string[] }).default_events;
    const line = /\*\*Events\*\*:([\s\S]*?)\n- \*\*/.exec(README)?.[1]?.replace(/\s+/g, ' ') ?? '';
    for (const event of events) expect({ event, named: line.includes(event.replace(/_/g, ' ')) }).toEqual({ event, named: true });
  });

  it('links the docs pages, and every relative link of the README and docs/ resolves to a file', () => {
    for (const page of ['configuration', 'self-hosting-and-docker', 'scale-out', 'security-model', 'cli', 'evidence', 'architecture', 'decisions', 'sandbox']) {
      expect(README).toContain(`(docs/${page}.md)`);
    }
    for (const file of docFiles(ROOT)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\]\(((?!https?:|mailto:|#)[^)#\s]+)(#[^)]*)?\)/g)) {
        const target = join(ROOT, dirname(file), m[1]!);
        expect({ file, link: m[1], exists: existsSync(target) }).toEqual({ file, link: m[1], exists: true });
      }
    }
  });
});
