/**
 * Writes lib/upstream/serpapi-options.ts: the few `select` lists of SerpApi's parameter metadata
 * (serpapi-params/, MIT, see its SOURCES.md) that request validation needs, as compact TypeScript, so
 * that a handler's bundle carries only the lists it imports and never the metadata files themselves.
 * Run: npx tsx lib/upstream/options-write.ts. A unit test fails when the written file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One engine's metadata file as SerpApi publishes it. */
export interface EngineMetadata {
  engine: string;
  params: Record<string, ParamMetadata>;
  common_params: Record<string, ParamMetadata>;
}

export interface ParamMetadata {
  type?: string;
  required?: boolean;
  /** A value, or [value, label]. */
  options?: (string | number | [string | number, string])[];
  description?: string;
}

// Outside a character class and with the `u` flag, `-` must not be escaped; these must.
const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** A pattern matching exactly these values in any letter case, as a trie so that long lists stay short. */
export function anyCasePattern(values: readonly string[]): string {
  interface Node {
    end: boolean;
    next: Map<string, Node>;
  }
  const root: Node = { end: false, next: new Map() };
  for (const value of values) {
    let node = root;
    for (const char of value.toLowerCase()) {
      let child = node.next.get(char);
      if (!child) {
        child = { end: false, next: new Map() };
        node.next.set(char, child);
      }
      node = child;
    }
    node.end = true;
  }
  const atom = (char: string) => (char.toUpperCase() !== char ? `[${char}${char.toUpperCase()}]` : escapeRegExp(char));
  const classOf = (chars: string[]) => {
    const members = chars.map((char) => (char.toUpperCase() !== char ? `${char}${char.toUpperCase()}` : escapeRegExp(char)));
    return chars.length === 1 ? atom(chars[0] ?? '') : `[${members.join('')}]`;
  };
  const render = (node: Node): string => {
    // Characters that end a value with nothing after them share one character class.
    const leaves = [...node.next].filter(([, child]) => child.next.size === 0).map(([char]) => char);
    const branches = [
      ...(leaves.length > 0 ? [classOf(leaves)] : []),
      ...[...node.next].filter(([, child]) => child.next.size > 0).map(([char, child]) => atom(char) + render(child)),
    ];
    if (branches.length === 0) return '';
    const body = branches.length === 1 && !node.end ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
    return node.end ? (branches.length === 1 ? `(?:${branches[0]})?` : `${body}?`) : body;
  };
  return render(root);
}

export const METADATA_DIR = new URL('./serpapi-params/', import.meta.url);

export function readEngineMetadata(file: string): EngineMetadata {
  return JSON.parse(readFileSync(new URL(`${file}.json`, METADATA_DIR), 'utf8')) as EngineMetadata;
}

/** The values a `select` parameter accepts, labels dropped. */
export function optionValues(param: ParamMetadata | undefined): string[] {
  return (param?.options ?? []).map((option) => String(Array.isArray(option) ? option[0] : option));
}

/** What the generated file holds: constant name, where it comes from, and how to write its values. */
const LISTS = [
  { name: 'GOOGLE_LANGUAGES', file: 'google', param: 'hl', note: 'Google `hl` (the same list for every Google engine)' },
  { name: 'DUCKDUCKGO_REGIONS', file: 'duckduckgo', param: 'kl', note: 'DuckDuckGo `kl`' },
  { name: 'BING_MARKETS', file: 'bing', param: 'mkt', note: 'Bing `mkt`' },
  { name: 'BING_COUNTRIES', file: 'bing', param: 'cc', note: 'Bing `cc`' },
  {
    name: 'TRENDS_GEOS',
    file: 'google_trends',
    param: 'geo',
    note: 'Google Trends `geo` (the empty "worldwide" value left out)',
  },
  { name: 'TRENDS_CATEGORIES', file: 'google_trends', param: 'cat', note: 'Google Trends `cat`', numeric: true },
] as const;

/** The file's text. Lists are written one line each: they are data, not something to read line by line. */
export function renderUpstreamOptions(): string {
  const blocks = LISTS.map((list) => {
    const values = optionValues(readEngineMetadata(list.file).params[list.param]).filter((value) => value !== '');
    const literal = 'numeric' in list ? values.map(Number).join(',') : values.map((value) => JSON.stringify(value)).join(',');
    const declaration = `/** ${list.note}: ${values.length} values, from serpapi-params/${list.file}.json. */\n// biome-ignore format: generated data\nexport const ${list.name} = [${literal}] as const;\n`;
    if ('numeric' in list) return declaration;
    // The validation pattern of the list (lib/schema.ts `upstreamOptions`), built here once rather than at every cold start.
    const pattern = `/** ${list.name} as one any-case pattern (anyCasePattern in lib/upstream/options-write.ts). */\n// biome-ignore format: generated data\nexport const ${list.name}_PATTERN = ${JSON.stringify(anyCasePattern(values))};\n`;
    return `${declaration}\n${pattern}`;
  });
  return [
    '/**',
    " * Generated by lib/upstream/options-write.ts from SerpApi's parameter metadata (serpapi-params/, MIT,",
    ' * Copyright (c) 2025 SerpApi; see serpapi-params/SOURCES.md). Do not edit: run the writer again.',
    ' */',
    '',
    blocks.join('\n'),
  ].join('\n');
}

export const OPTIONS_FILE = new URL('./serpapi-options.ts', import.meta.url);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPTIONS_FILE, renderUpstreamOptions());
  console.log(`wrote ${fileURLToPath(OPTIONS_FILE)}`);
}
