/**
 * lib/citations/ reads as the pipeline: `model` (records and their text) at the bottom; `match`, `sources`,
 * `render` and `exports` above it, each on its own; `search` and `resolve` (the two endpoints' pipelines)
 * on top. An import runs down the house, never sideways between two rooms of one floor nor up, and no
 * module imports itself back through others (an import circle). The citation-search handler is one call
 * into its pipeline. Read from the source files, so that a new import that breaks the layout fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CITATIONS = join(ROOT, 'lib/citations');

/** Each folder's floor: an import must go to a lower floor, or stay in its own folder. */
const FLOORS: Record<string, number> = {
  model: 0,
  match: 1,
  sources: 1,
  render: 1,
  exports: 1,
  search: 2,
  resolve: 2,
  check: 2,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'pack' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The relative modules a source imports: static imports and re-exports, and dynamic imports of a literal. */
function importsOf(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms),
    ...source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((match) => match[1] as string);
  return [...new Set(specifiers)];
}

/** file → the files of lib/citations it imports (repository-relative, .ts). */
function importGraph(files: readonly string[], read: (file: string) => string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(read(file)).map((specifier) =>
      relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)).replace(/\.js$/, '.ts'),
    );
    graph.set(
      file,
      targets.filter((target) => target.startsWith('lib/citations/')),
    );
  }
  return graph;
}

/** Every import circle, each as the files on it in import order (first file repeated at the end). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

/** Imports that go up or sideways between folders (see FLOORS), and files outside any folder. */
function layoutBreaches(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const folderOf = (file: string) => file.split('/')[2] ?? '';
  const breaches: string[] = [];
  for (const [file, targets] of graph) {
    const folder = folderOf(file);
    if (!(folder in FLOORS)) {
      breaches.push(`${file}: not in one of the folders ${Object.keys(FLOORS).join(', ')}`);
      continue;
    }
    for (const target of targets) {
      const to = folderOf(target);
      if (to === folder) continue;
      if (!(to in FLOORS) || (FLOORS[to] ?? 0) >= (FLOORS[folder] ?? 0)) {
        breaches.push(`${file} imports ${target}: ${to} is not below ${folder}`);
      }
    }
  }
  return breaches;
}

const files = sourceFiles(CITATIONS).map((path) => relative(ROOT, path));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the layout of lib/citations', () => {
  it('has no import circle', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(circles(importGraph(files, read))).toEqual([]);
  });

  it('imports only down the house: model, then match, sources, render and exports, then search and resolve', () => {
    expect(layoutBreaches(importGraph(files, read))).toEqual([]);
  });

  it('imports nothing of the floors above it: the handlers, the local server, MCP', () => {
    const above = files.flatMap((file) =>
      importsOf(read(file))
        .map((specifier) => relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)))
        .filter((target) => /^(?:functions|lib\/local|lib\/mcp)\//.test(target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(above).toEqual([]);
  });

  it('keeps the citation-search handler to one call into its pipeline, at most 120 lines', () => {
    const handler = read('functions/cite-search.ts');
    expect(handler.split('\n').length).toBeLessThanOrEqual(120);
  });

  it('finds a circle, a sideways and an upward import when there is one (the checks themselves)', () => {
    const graph = new Map([
      ['lib/citations/model/a.ts', ['lib/citations/model/b.ts']],
      ['lib/citations/model/b.ts', ['lib/citations/model/a.ts']],
      ['lib/citations/match/m.ts', ['lib/citations/render/r.ts', 'lib/citations/model/a.ts']],
      ['lib/citations/model/c.ts', ['lib/citations/search/s.ts']],
      ['lib/citations/loose.ts', []],
    ]);
    expect(circles(graph)).toEqual([['lib/citations/model/a.ts', 'lib/citations/model/b.ts', 'lib/citations/model/a.ts']]);
    expect(layoutBreaches(graph)).toEqual([
      'lib/citations/match/m.ts imports lib/citations/render/r.ts: render is not below match',
      'lib/citations/model/c.ts imports lib/citations/search/s.ts: search is not below model',
      expect.stringContaining('lib/citations/loose.ts: not in one of the folders'),
    ]);
    expect(
      importsOf("import type { A } from './a.js';\nexport { B } from '../b.js';\nconst c = await import('./c.js');"),
    ).toEqual(['./a.js', '../b.js', './c.js']);
  });
});
