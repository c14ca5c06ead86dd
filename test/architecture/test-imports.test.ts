import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { importEdges, type ImportEdge } from './import-graph.js';

const repo = path.resolve(import.meta.dirname, '../..');
const under = (folder: string) => (file: string) => file.startsWith(`${folder}/`);
const show = (edges: ImportEdge[]) => edges.map((e) => `${e.from} → ${e.to}`);

/**
 * Who may import test and benchmark code: the benchmarks share test/support/ (the fake GitHub, the
 * git HTTP server, the Redis server, makeRepo) and nothing else of test/; only the benchmarks' own
 * smoke tests (test/bench/) import bench/; src/ imports neither.
 */
describe('imports between src/, test/ and bench/', () => {
  const edges = importEdges(repo, ['src', 'test', 'bench']);

  it('finds the imports of all three', () => {
    for (const folder of ['src', 'test', 'bench']) expect(edges.some((e) => under(folder)(e.from))).toBe(true);
    expect(edges).toContainEqual({ from: 'bench/main.ts', to: 'test/support/redis-server.ts', typeOnly: false });
  });

  it('bench/ imports only src/, bench/ and test/support/', () => {
    const allowed = (to: string) => ['src', 'bench', 'test/support'].some((folder) => under(folder)(to));
    expect(show(edges.filter((e) => under('bench')(e.from) && !allowed(e.to)))).toEqual([]);
  });

  it('test/support/ imports only src/ and test/support/, so bench/ reaches no other test code', () => {
    const allowed = (to: string) => under('src')(to) || under('test/support')(to);
    expect(show(edges.filter((e) => under('test/support')(e.from) && !allowed(e.to)))).toEqual([]);
  });

  it('only the benchmarks smoke tests in test/bench/ import bench/', () => {
    expect(show(edges.filter((e) => under('test')(e.from) && !under('test/bench')(e.from) && under('bench')(e.to)))).toEqual([]);
    expect(edges.some((e) => under('test/bench')(e.from) && under('bench')(e.to))).toBe(true);
  });

  // nock patches node:http, a core module that outlives a test file's module registry: left
  // active, it serves the next file's plain HTTP through sockets of its own in the same jest worker
  // (the egress proxy's byte counts read 0 there, in a full run only).
  it('a test file that loads nock, itself or through what it imports, unpatches node:http after its tests', () => {
    const text = (file: string) => readFileSync(path.join(repo, file), 'utf8');
    const loads = new Set(edges.flatMap((e) => [e.from, e.to]).filter((file) => under('test')(file) && /from 'nock'/.test(text(file))));
    for (let grew = true; grew; ) {
      grew = false;
      for (const e of edges) if (!e.typeOnly && loads.has(e.to) && !loads.has(e.from)) grew = Boolean(loads.add(e.from));
    }
    const tests = [...loads].filter((file) => file.endsWith('.test.ts'));
    expect(tests.length).toBeGreaterThan(20);
    expect(tests.filter((file) => !text(file).includes('nock.restore()'))).toEqual([]);
  });

  it('src/ imports only src/', () => {
    expect(show(edges.filter((e) => under('src')(e.from) && !under('src')(e.to)))).toEqual([]);
  });
});
