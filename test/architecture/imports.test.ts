import * as fs from 'node:fs';
import * as path from 'node:path';
import { folderRules } from './folder-rules.js';
import { importCycles, importEdges, type ImportEdge } from './import-graph.js';

const repo = path.resolve(import.meta.dirname, '../..');
const src = path.join(repo, 'src');

describe('imports in src/', () => {
  const edges = importEdges(src);
  const rules = folderRules(fs.readFileSync(path.join(repo, 'docs/architecture.md'), 'utf8'));
  const folderOf = (file: string) => file.split('/')[0] ?? '';

  it('finds the imports, type imports and re-exports included', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'agent/types.ts', to: 'agent/journal.ts', typeOnly: true });
    expect(edges).toContainEqual({ from: 'agent/journal.ts', to: 'agent/journal-schema.ts', typeOnly: false });
    expect(edges.filter((e) => !fs.existsSync(path.join(src, e.to)))).toEqual([]);
  });

  it('has no barrels: a file imports the file that defines what it needs', () => {
    expect(edges.filter((e) => path.posix.basename(e.to) === 'index.ts')).toEqual([]);
    expect(fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === 'index.ts')).toEqual([]);
    // Nor re-exports: a name is imported from the file that defines it, never through another.
    const files = fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.filter((f) => /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s/m.test(fs.readFileSync(path.join(src, f), 'utf8')))).toEqual([]);
  });

  it('has crash points only in the wrappers: no production interface carries them', () => {
    const users = edges.filter((e) => e.to === 'util/crash-points.ts').map((e) => e.from);
    expect([...new Set(users)].sort()).toEqual(['agent/crashing-journal.ts', 'cli/crash-wrappers.ts', 'fix/crashing-fix.ts', 'github/crashing-host.ts', 'job/crashing-queue.ts', 'workspace/crashing-push.ts']);
  });

  it('reads the environment only in config/ and the CLI entry (the forwarder script runs in the sandbox, on its own)', () => {
    const files = fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const code = (f: string) => fs.readFileSync(path.join(src, f), 'utf8').split('\n').filter((line) => !/^\s*(\*|\/\/)/.test(line));
    const readers = files.filter((f) => code(f).some((line) => /\bprocess\.env\b/.test(line)));
    expect(readers.filter((f) => !f.startsWith('config/')).sort()).toEqual(['cli/main.ts', 'sandbox/egress-forwarder.ts']);
  });

  it('has no cycle', () => {
    expect(importCycles(edges).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('imports only down the architecture table', () => {
    expect(rules.map((r) => r.folder).sort()).toEqual(
      fs
        .readdirSync(src, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort(),
    );
    const allowed = (e: ImportEdge) => {
      const [from, to] = [folderOf(e.from), folderOf(e.to)];
      const rule = rules.find((r) => r.folder === from);
      return from === to || rule?.imports.has(to) || (rule?.typesOnly.has(to) && (e.typeOnly || e.to === `${to}/types.ts`));
    };
    expect(edges.filter((e) => !allowed(e)).map((e) => `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`)).toEqual([]);
  });
});

describe('the import checks themselves', () => {
  it('report a cycle as a path back to its start, the shortest one per cycle', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: true });
    const edges = [edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('c.ts', 'b.ts'), edge('d.ts', 'd.ts'), edge('e.ts', 'a.ts')];
    expect(importCycles(edges).map((c) => c.join(' → ')).sort()).toEqual(['a.ts → b.ts → c.ts → a.ts', 'd.ts → d.ts']);
  });

  it('read the table: none, a list, types only, everything below', () => {
    const table = [
      '| folder | owns | may import |',
      '|---|---|---|',
      '| `cli/` | wiring | everything below |',
      '| `queue/` | jobs, (leases) | triggers (types: `JobRequest`, `subjectKey`), util |',
      '| `util/` | leaf helpers | — |',
    ].join('\n');
    const rules = folderRules(table);
    expect(rules.map((r) => [r.folder, [...r.imports], [...r.typesOnly]])).toEqual([
      ['cli', ['queue', 'util'], []],
      ['queue', ['util'], ['triggers']],
      ['util', [], []],
    ]);
  });
});
