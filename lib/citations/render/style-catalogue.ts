/**
 * The CSL style catalogue: every style of the official CSL styles repository (independent and dependent) and
 * every CSL locale, read from the pack beside this module (lib/citations/render/styles/pack/, written by
 * lib/citations/render/styles/pack-write.ts), or where STYLE_PACK_DIR says: deployed, the pack's Lambda layer
 * (/opt/csl-style-pack, infra/style-pack-layer.ts). The pack is data, not code, read once per process on
 * first use: pack.json (a few KB: the sources, where each locale and pinned text is) by every renderer
 * (`loadStylePack`), catalogue.json.br (brotli JSON: every style's metadata in columns and where each body is)
 * only for a style of the catalogue, a search of it or a check of style ids (`loadCatalogue`). A style's or
 * locale's XML is read from its part (styles-NN.bin) when asked for (one brotli body at an offset).
 *
 * Styles and locales: CC BY-SA 3.0, the Citation Style Language project and the authors named in each file;
 * see lib/citations/render/styles/SOURCES.md.
 */
import { openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompress, brotliDecompressSync } from 'node:zlib';
import { config } from '../../config.js';
import {
  bodyOf,
  type CatalogueStyle,
  fieldSetsOf,
  PACK_VERSION,
  type PackColumns,
  type PackIndex,
  partFile,
  type Span,
  styleOf,
} from './styles/pack-format.js';

export type { CatalogueStyle } from './styles/pack-format.js';

export type PinnedStyleName = 'mla' | 'chicago' | 'apa' | 'harvard1' | 'vancouver';
export type PinnedLocaleName = 'en-US' | 'en-GB';

/** What rendering the five formats needs of the pack: the pinned texts and the locales (pack.json). */
export interface StylePack {
  readonly source: { styles_commit: string; styles_date: string; locales_commit: string; locales_date: string };
  /** A repository locale's XML by tag ("de-DE"); a bare language ("de") gives its primary dialect; undefined when none. */
  locale(lang: string): string | undefined;
  /** The style texts the renderer has used since before the pack, byte for byte. */
  pinnedStyle(name: PinnedStyleName): string;
  /** The locale texts the renderer has used since before the pack, byte for byte. */
  pinnedLocale(lang: PinnedLocaleName): string;
}

export interface Catalogue extends StylePack {
  /** Sorted by id. */
  readonly styles: readonly CatalogueStyle[];
  readonly total: number;
  /** By exact id; also accepts a full "http://www.zotero.org/styles/<id>" URL. */
  get(id: string): CatalogueStyle | undefined;
  /**
   * XML to build an engine from: the style's own (independent) or its parent's (dependent); and the locale to
   * build it in: the dependent's own default-locale, else the independent's default-locale, else "en-US".
   * Undefined for an unknown id. Synchronous: reads one body from its part of the pack.
   */
  styleForRendering(id: string): { id: string; independent_id: string; xml: string; locale: string } | undefined;
}

/** The layer's folder where deployed (STYLE_PACK_DIR), else the repository's pack beside this module. */
const DEFAULT_PACK = config.STYLE_PACK_DIR
  ? pathToFileURL(`${config.STYLE_PACK_DIR.replace(/\/$/, '')}/`)
  : new URL('./styles/pack/', import.meta.url);

/** The catalogue's columns are ~1 MB decompressed. */
const CATALOGUE_CHUNK_BYTES = 1 << 20;

const STYLE_URL = /^https?:\/\/(?:www\.)?zotero\.org\/styles\/([^/?#\s]+)\/?$/i;

/** The id in a style URL, or the argument as it is. */
function bareId(id: string): string {
  const trimmed = id.trim();
  return STYLE_URL.exec(trimmed)?.[1] ?? trimmed;
}

/** Reads bodies from the pack's parts: one file descriptor per part, opened on first use and kept for the process. */
class Bodies {
  private readonly fds = new Map<number, number>();
  constructor(private readonly dir: URL) {}
  read([part, offset, length]: Span): string {
    let fd = this.fds.get(part);
    if (fd === undefined) {
      fd = openSync(new URL(partFile(part), this.dir), 'r');
      this.fds.set(part, fd);
    }
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, offset + done);
      if (n === 0) throw new Error(`${partFile(part)}: unexpected end at ${offset + done}`);
      done += n;
    }
    return brotliDecompressSync(buffer).toString('utf8');
  }
}

interface LoadedPack extends StylePack {
  readonly bodies: Bodies;
}

function buildPack(index: PackIndex, dir: URL): LoadedPack {
  const bodies = new Bodies(dir);
  const localeSpans = new Map(Object.entries(index.locales));
  const localeByLower = new Map([...localeSpans.keys()].map((tag) => [tag.toLowerCase(), tag]));
  const primary = new Map(Object.entries(index.primary_dialects).map(([lang, tag]) => [lang.toLowerCase(), tag]));
  return {
    bodies,
    source: Object.freeze({ ...index.source }),
    locale(lang) {
      const wanted = lang.trim().replace(/_/g, '-').toLowerCase();
      let tag = localeByLower.get(wanted);
      if (!tag) {
        const dialect = primary.get(wanted);
        if (dialect) tag = localeByLower.get(dialect.toLowerCase());
      }
      const span = tag ? localeSpans.get(tag) : undefined;
      return span ? bodies.read(span) : undefined;
    },
    pinnedStyle(name) {
      const span = index.pinned.styles[name];
      if (!span) throw new Error(`the style pack has no pinned style ${name}`);
      return bodies.read(span);
    },
    pinnedLocale(lang) {
      const span = index.pinned.locales[lang];
      if (!span) throw new Error(`the style pack has no pinned locale ${lang}`);
      return bodies.read(span);
    },
  };
}

/** What this module's searches read of a catalogue it built: the columns, and style `i` made on first ask. */
interface Internals {
  columns: PackColumns;
  styleAt(i: number): CatalogueStyle;
}

const internals = new WeakMap<Catalogue, Internals>();

function buildCatalogue(pack: LoadedPack, columns: PackColumns): Catalogue {
  const total = columns.id.length;
  const sets = fieldSetsOf(columns);
  // A style's object is made when it is first asked for: a search reads the columns and makes its hits alone.
  const made: (CatalogueStyle | undefined)[] = new Array(total);
  const styleAt = (i: number): CatalogueStyle => {
    let style = made[i];
    if (!style) {
      style = styleOf(columns, sets, i);
      made[i] = style;
    }
    return style;
  };
  let all: readonly CatalogueStyle[] | undefined;
  const indexById = new Map<string, number>();
  for (let i = 0; i < total; i++) indexById.set(columns.id[i] as string, i);
  const catalogue: Catalogue = {
    source: pack.source,
    locale: pack.locale,
    pinnedStyle: pack.pinnedStyle,
    pinnedLocale: pack.pinnedLocale,
    get styles() {
      all ??= Object.freeze(Array.from({ length: total }, (_, i) => styleAt(i)));
      return all;
    },
    total,
    get(id) {
      const i = indexById.get(bareId(id));
      return i === undefined ? undefined : styleAt(i);
    },
    styleForRendering(id) {
      const i = indexById.get(bareId(id));
      if (i === undefined) return undefined;
      const parent = columns.parent[i] as number;
      const independentAt = parent >= 0 ? parent : i;
      const body = bodyOf(columns, independentAt);
      if (!body) return undefined;
      const style = styleAt(i);
      const independent = styleAt(independentAt);
      return {
        id: style.id,
        independent_id: independent.id,
        xml: pack.bodies.read(body),
        locale: style.default_locale ?? independent.default_locale ?? 'en-US',
      };
    },
  };
  internals.set(catalogue, { columns, styleAt });
  return catalogue;
}

/** The catalogue's columns and styles by index: this module built every catalogue there is. */
function internalsOf(catalogue: Catalogue): Internals {
  const found = internals.get(catalogue);
  if (!found) throw new Error('a catalogue not loaded by loadCatalogue');
  return found;
}

/** A pack folder as a URL ending in "/": the configured one, or a test's. */
function packUrl(packDir: URL | string): URL {
  return typeof packDir === 'string' ? pathToFileURL(packDir.endsWith('/') ? packDir : `${packDir}/`) : packDir;
}

/** One load per folder and process, kept once it succeeds; a failed load is tried again on the next call. */
function once<T>(loads: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let pending = loads.get(key);
  if (!pending) {
    pending = load();
    loads.set(key, pending);
    pending.catch(() => {
      if (loads.get(key) === pending) loads.delete(key);
    });
  }
  return pending;
}

const packs = new Map<string, Promise<LoadedPack>>();
const catalogues = new Map<string, Promise<Catalogue>>();

function refuseOtherVersion(file: string, version: number): void {
  if (version !== PACK_VERSION) throw new Error(`style pack ${file} version ${version}, expected ${PACK_VERSION}`);
}

/**
 * What rendering the five formats needs (pack.json, a few KB), loaded once per process on first call; a
 * failed load is not cached. `packDir` (tests): another pack directory than the configured one.
 */
export function loadStylePack(packDir: URL | string = DEFAULT_PACK): Promise<StylePack> {
  const dir = packUrl(packDir);
  return once(packs, dir.href, async () => {
    const index = JSON.parse(await readFile(new URL('pack.json', dir), 'utf8')) as PackIndex;
    refuseOtherVersion('pack.json', index.version);
    return buildPack(index, dir);
  });
}

/**
 * The whole catalogue, loaded once per process on first call (reads and decompresses catalogue.json.br),
 * then cached; a failed load is not cached. `packDir` (tests): another pack directory than the configured one.
 */
export function loadCatalogue(packDir: URL | string = DEFAULT_PACK): Promise<Catalogue> {
  const dir = packUrl(packDir);
  return once(catalogues, dir.href, async () => {
    const [pack, compressed] = await Promise.all([
      loadStylePack(dir) as Promise<LoadedPack>,
      readFile(new URL('catalogue.json.br', dir)),
    ]);
    // Decompressed in a few large pieces rather than a hundred 16 KiB ones copied together at the end.
    const json = await promisify(brotliDecompress)(compressed, { chunkSize: CATALOGUE_CHUNK_BYTES });
    const columns = JSON.parse(json.toString('utf8')) as PackColumns;
    refuseOtherVersion('catalogue.json.br', columns.version);
    return buildCatalogue(pack, columns);
  });
}

/** Printable ASCII, as most titles are: nothing to decompose, no mark to remove. */
const PLAIN = /^[ -~]*$/;

/**
 * Lower case, accents and other combining marks removed. Plain ASCII is only lower-cased, which is the same
 * answer: the catalogue's first search folds some 20,000 titles, and a new container waits on it.
 */
function fold(text: string): string {
  if (PLAIN.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Each style's title and short title folded, by index (ids are lower case already), and its fields'. */
interface SearchIndex {
  titles: string[];
  shorts: string[];
  /** Each field set's names folded, by the set's index (catalogue.json.br's `field_sets`). */
  sets: (readonly string[])[];
}

const searchIndexes = new WeakMap<Catalogue, SearchIndex>();

function searchIndex(catalogue: Catalogue): SearchIndex {
  let index = searchIndexes.get(catalogue);
  if (!index) {
    const { columns } = internalsOf(catalogue);
    index = {
      titles: columns.title.map(fold),
      shorts: columns.title_short.map((short) => (short ? fold(short) : '')),
      sets: columns.field_sets.map((set) => set.map((f) => fold(columns.field_names[f] as string))),
    };
    searchIndexes.set(catalogue, index);
  }
  return index;
}

/**
 * Styles whose id, title or title_short contain every word of the query (case- and accent-insensitive), or
 * whose fields include the query as a field name (e.g. "medicine", "physics"); `field` keeps those of that
 * field only. Ranked: exact id, then id starting with the query, then title starting with it, then others;
 * independents before dependents at equal rank; then by id. An empty query lists all (of the field).
 */
export function searchStyles(
  catalogue: Catalogue,
  query: string,
  options: { field?: string; limit?: number; offset?: number } = {},
): { total: number; styles: CatalogueStyle[] } {
  const q = fold(query).trim().replace(/\s+/g, ' ');
  const words = q ? q.split(' ') : [];
  const asId = q.replace(/ /g, '-');
  // field names are written social_science, political_science
  const asField = q.replace(/[ -]/g, '_');
  const field = options.field ? fold(options.field).trim() : undefined;
  const { columns, styleAt } = internalsOf(catalogue);
  const { titles, shorts, sets } = searchIndex(catalogue);
  const hits: { at: number; id: string; rank: number }[] = [];
  for (let i = 0; i < columns.id.length; i++) {
    const fields = sets[columns.fields[i] as number] ?? [];
    if (field && !fields.includes(field)) continue;
    const id = columns.id[i] as string;
    const title = titles[i] as string;
    const short = shorts[i] as string;
    // A word holds no line break: in the id, the title or the short title is in the three written as one text.
    const matches =
      words.every((w) => id.includes(w) || title.includes(w) || short.includes(w)) ||
      (asField !== '' && fields.includes(asField));
    if (!matches) continue;
    let rank = 3;
    if (!q) rank = 3;
    else if (id === asId) rank = 0;
    else if (id.startsWith(asId)) rank = 1;
    else if (title.startsWith(q)) rank = 2;
    hits.push({ at: i, id, rank: rank * 2 + ((columns.parent[i] as number) >= 0 ? 1 : 0) });
  }
  hits.sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const limit = options.limit === undefined ? hits.length : Math.max(0, Math.floor(options.limit));
  return { total: hits.length, styles: hits.slice(offset, offset + limit).map((h) => styleAt(h.at)) };
}

/** Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`. */
function editDistance(a: string, b: string, max: number, row: Int32Array): number {
  const m = a.length;
  const n = b.length;
  if (m - n > max || n - m > max) return max + 1;
  for (let j = 0; j <= n; j++) row[j] = j;
  for (let i = 1; i <= m; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const above = row[j] as number;
      let value = ca === b.charCodeAt(j - 1) ? diagonal : diagonal + 1;
      if (above + 1 < value) value = above + 1;
      const left = (row[j - 1] as number) + 1;
      if (left < value) value = left;
      row[j] = value;
      diagonal = above;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
  }
  return row[n] as number;
}

const BUCKETS = 38;

/** The bucket of a character in an id: a–z, 0–9, and one for anything else. */
function bucket(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 48 && code <= 57) return code - 48 + 26;
  return 36 + (code === 45 ? 0 : 1);
}

/** Each id's character counts, BUCKETS per id: half their difference bounds the edit distance from below. */
const idHistograms = new WeakMap<Catalogue, Uint8Array>();

function histograms(catalogue: Catalogue): Uint8Array {
  const cached = idHistograms.get(catalogue);
  if (cached) return cached;
  const ids = internalsOf(catalogue).columns.id;
  const all = new Uint8Array(ids.length * BUCKETS);
  ids.forEach((id, k) => {
    for (let i = 0; i < id.length; i++) {
      const at = k * BUCKETS + bucket(id.charCodeAt(i));
      all[at] = Math.min(255, (all[at] as number) + 1);
    }
  });
  idHistograms.set(catalogue, all);
  return all;
}

/**
 * Up to n ids closest to an unknown id, for "did you mean": by edit distance, an id that is a whole part of
 * the other or has it as one ("nature" for "nature-journal") counting as a few edits, a longer shared
 * beginning breaking ties, then independents first.
 */
export function closeStyleIds(catalogue: Catalogue, id: string, n = 5): string[] {
  const q = fold(bareId(id))
    .replace(/\.csl$/, '')
    .replace(/[\s_]+/g, '-');
  if (!q || n <= 0) return [];
  const limit = Math.max(3, Math.ceil(q.length * 0.4));
  const row = new Int32Array(256);
  const dashed = `-${q}-`;
  const scored: { id: string; score: number }[] = [];
  const all = histograms(catalogue);
  const own = new Int32Array(BUCKETS);
  for (let i = 0; i < q.length; i++) {
    const b = bucket(q.charCodeAt(i));
    own[b] = (own[b] as number) + 1;
  }
  const { id: ids, parent } = internalsOf(catalogue).columns;
  for (let k = 0; k < ids.length; k++) {
    const candidate = ids[k] as string;
    // the containment score first (cheap), so that the edit distance is bounded by it
    let score = limit + 1;
    if (candidate.length > q.length) {
      if (q.length >= 3 && candidate.includes(q)) {
        const extra = candidate.length - q.length;
        if (candidate.startsWith(`${q}-`)) score = 1 + extra / 10;
        else if (`-${candidate}-`.includes(dashed)) score = 1.5 + extra / 8;
        else if (q.length >= 4) score = 2 + extra / 6;
      }
    } else if (candidate.length >= 3 && candidate.length < q.length && q.includes(candidate)) {
      const extra = q.length - candidate.length;
      if (q.startsWith(`${candidate}-`)) score = 1 + extra / 10;
      else if (dashed.includes(`-${candidate}-`)) score = 1.5 + extra / 8;
      else if (candidate.length >= 4) score = 2 + extra / 6;
    }
    const bound = Math.min(limit, Math.floor(score));
    if (candidate.length < row.length && Math.abs(candidate.length - q.length) <= bound) {
      let differ = 0;
      for (let b = 0, at = k * BUCKETS; b < BUCKETS; b++, at++) {
        const d = (own[b] as number) - (all[at] as number);
        differ += d < 0 ? -d : d;
      }
      if (differ <= 2 * bound) {
        const distance = editDistance(q, candidate, bound, row);
        if (distance < score) score = distance;
      }
    }
    if (score > limit) continue;
    let prefix = 0;
    while (prefix < q.length && prefix < candidate.length && q[prefix] === candidate[prefix]) prefix++;
    scored.push({ id: candidate, score: score - Math.min(prefix, 10) / 100 + ((parent[k] as number) >= 0 ? 0.001 : 0) });
  }
  scored.sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, n).map((s) => s.id);
}
