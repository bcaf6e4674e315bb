/**
 * The text a tool result carries beside its structured data, for clients and models that read only
 * text: everything the model needs from the answer, compactly. Every item of every result list (title,
 * link, snippet and its other facts on one line), a citation search's reference list with each paper's
 * citation in the asked format and its exports when asked, a scholar's name, affiliation and citation
 * counts, Google Trends' values as small tables, and how to get the next page. Written over any endpoint's
 * data (a new route needs nothing here), capped at TEXT_MAX characters with a line that says what was cut.
 * Errors: the code, the details and what to do, as fits the tool.
 */
import type { ErrorCode } from '../errors.js';

/** The most text a result carries (about 6,000 tokens); the cut is said, and structuredContent has it all. */
export const TEXT_MAX = 24_000;
const SNIPPET_CHARS = 300;
/** A nested value written as compact JSON is clipped here; structuredContent has it whole. */
const JSON_CHARS = 1_500;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const firstKey = (item: Json, keys: readonly string[]) =>
  keys.find((key) => {
    const value = item[key];
    return (typeof value === 'string' && value.trim() !== '') || typeof value === 'number';
  });
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const compactJson = (value: unknown) => clip(JSON.stringify(value), JSON_CHARS);

const TITLE_KEYS = ['title', 'name', 'question', 'query', 'location'];
const LINK_KEYS = ['link', 'source_url', 'url', 'original', 'serpapi_link'];
const SNIPPET_KEYS = ['snippet', 'description'];
/** Fields a model has no use for in text: pictures, duplicates of the link or the item's number. */
const NOISE_KEYS = new Set(['thumbnail', 'image', 'displayed_link', 'position', 'rank', 'index', 'serpapi_link']);

/** A nested value in a few words: a count, a list of names, else compact JSON. */
function fact(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (isScalar(value)) return clip(oneLine(String(value)), SNIPPET_CHARS);
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    if (value.every(isScalar)) return clip(value.join(', '), SNIPPET_CHARS);
    const names = value.map((item) => (isRecord(item) ? firstKey(item, TITLE_KEYS) : undefined));
    if (names.every((key) => key !== undefined))
      return clip(value.map((item, i) => String((item as Json)[names[i] as string])).join(', '), SNIPPET_CHARS);
    return compactJson(value);
  }
  if (isRecord(value)) {
    if (typeof value.count === 'number') return String(value.count);
    const entries = Object.entries(value);
    if (entries.every(([, v]) => v === null || isScalar(v))) return entries.map(([k, v]) => `${k} ${v ?? '–'}`).join(', ');
    return compactJson(value);
  }
  return undefined;
}

/** A nested list worth an item per line: records with more to say than a name and a link. */
const isItemList = (value: unknown): value is Json[] =>
  Array.isArray(value) && value.some((item) => isRecord(item) && Object.keys(item).length > 2);

/** The facts of a record other than those already said, as "key: value; …". */
function facts(item: Json, skip: ReadonlySet<string>): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(item)) {
    if (skip.has(key) || NOISE_KEYS.has(key)) continue;
    const text = fact(value);
    if (text !== undefined) parts.push(`${key}: ${text}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** One result: its title, link and snippet, then its other facts on one line. */
function renderItem(item: unknown, n: number, format: string | undefined, references: ReadonlySet<string>): string | undefined {
  if (isScalar(item)) return `${n}. ${clip(String(item), SNIPPET_CHARS)}`;
  if (!isRecord(item)) return undefined;
  const titleKey = firstKey(item, TITLE_KEYS);
  if (!titleKey) return `${n}. ${compactJson(item)}`;
  const linkKey = firstKey(item, LINK_KEYS);
  const snippetKey = firstKey(item, SNIPPET_KEYS);
  const said = new Set([titleKey, linkKey, snippetKey].filter((key): key is string => key !== undefined));
  const lines = [`${n}. ${oneLine(String(item[titleKey]))}`];
  if (linkKey) lines.push(`   ${item[linkKey]}`);
  if (snippetKey) lines.push(`   ${clip(oneLine(String(item[snippetKey])), SNIPPET_CHARS)}`);
  if (isRecord(item.citations) && 'citations_source' in item) {
    // A citation search's paper: its citation in the asked format, where it comes from, and its exports.
    for (const key of ['citations', 'citations_source', 'citation_gaps', 'exports']) said.add(key);
    const citation = format ? item.citations[format] : undefined;
    const listed = typeof citation === 'string' && references.has(`[${item.index}] ${citation}`);
    lines.push(
      typeof citation !== 'string'
        ? `   ${format ?? 'citation'}: none (${Object.keys(item.citations).join(', ') || 'no format'} given)`
        : listed
          ? `   ${format}: reference_list [${item.index}]`
          : `   ${format}: ${citation}`,
    );
    const gaps =
      Array.isArray(item.citation_gaps) && item.citation_gaps.length > 0 ? `; check: ${item.citation_gaps.join(', ')}` : '';
    if (item.citations_source) lines.push(`   citations_source: ${item.citations_source}${gaps}`);
    const rest = facts(item, said);
    if (rest) lines.push(`   ${rest}`);
    if (isRecord(item.exports)) lines.push(...renderExports(item.exports));
    return lines.join('\n');
  }
  const rest = facts(item, said);
  if (rest) lines.push(`   ${rest}`);
  return lines.join('\n');
}

/** A paper's export records, each whole: a reference manager needs every line. */
function renderExports(exports: Json): string[] {
  const lines: string[] = [];
  const origin = [`exports from ${exports.source}`, exports.fallback_reason, exports.render_error].filter(Boolean).join('; ');
  lines.push(`   ${origin}:`);
  if (typeof exports.bibtex === 'string') lines.push(exports.bibtex);
  if (typeof exports.ris === 'string') lines.push(exports.ris);
  if (exports.csl_json !== undefined) lines.push(`CSL-JSON: ${JSON.stringify(exports.csl_json)}`);
  return lines;
}

/** Term values as a table: one row per time slot or region, one column per term. */
function valueTable(rows: unknown[], label: (row: Json) => string): string[] {
  const records = rows.filter(isRecord);
  const first = records.find((row) => Array.isArray(row.values));
  const terms = Array.isArray(first?.values) ? first.values.map((v) => (isRecord(v) ? String(v.query) : '')) : [];
  const cell = (v: unknown) => (isRecord(v) ? String(v.formatted_value ?? v.value ?? '–') : '–');
  return [
    `| ${terms.join(' | ')}`,
    ...records.map((row) => `${label(row)} | ${(Array.isArray(row.values) ? row.values : []).map(cell).join(' | ')}`),
  ];
}

/** Google Trends: interest over time and by region, as tables of values. */
function renderTrends(data: Json): Block[] {
  const blocks: Block[] = [];
  const time = isRecord(data.interest_over_time) ? data.interest_over_time : undefined;
  const timeline = Array.isArray(time?.timeline_data) ? time.timeline_data : [];
  if (timeline.length > 0) {
    const [head, ...rows] = valueTable(timeline, (row) => `${row.date}${row.partial === true ? ' (partial)' : ''}`);
    blocks.push({
      section: 'interest_over_time',
      text: `interest_over_time (${time?.granularity ?? 'slots'}; 0–100, 100 = peak):\ndate ${head}`,
    });
    for (const row of rows) blocks.push({ section: 'interest_over_time', item: true, text: row });
  }
  const averages = Array.isArray(time?.averages) ? time.averages.filter(isRecord) : [];
  if (averages.length > 0)
    blocks.push({ section: 'averages', text: `averages: ${averages.map((a) => `${a.query} ${a.value ?? '–'}`).join(', ')}` });
  const regions = Array.isArray(data.interest_by_region) ? data.interest_by_region : [];
  if (regions.length > 0) {
    const [head, ...rows] = valueTable(regions, (row) => `${row.location}${row.geo ? ` (${row.geo})` : ''}`);
    blocks.push({ section: 'interest_by_region', text: `interest_by_region:\nregion ${head}` });
    for (const row of rows) blocks.push({ section: 'interest_by_region', item: true, text: row });
  }
  return blocks;
}

/** A piece of the text; items of a list can be cut, and the cut is counted by section. */
interface Block {
  section: string;
  text: string;
  item?: boolean;
}

const TRENDS_KEYS = new Set(['interest_over_time', 'interest_by_region']);
/** Said elsewhere (note, paging) or a duplicate of what the list says. */
const SKIP_KEYS = new Set(['note', 'pagination', 'url_list', 'citation_details', 'message']);
const PAGING_KEYS = new Set(['page', 'has_more', 'next_page', 'next_pn', 'index_offset', 'current_page', 'page_size']);

/** The blocks of one top-level field: a list item by item, a record as its facts, a value as itself. */
function fieldBlocks(
  key: string,
  value: unknown,
  format: string | undefined,
  references: ReadonlySet<string>,
  depth = 0,
): Block[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (value.every(isScalar)) return [{ section: key, text: `${key}:\n${value.map(String).join('\n')}` }];
    const blocks: Block[] = [{ section: key, text: `${key} (${value.length}):` }];
    value.forEach((item, i) => {
      const text = renderItem(item, i + 1, format, references);
      if (text) blocks.push({ section: key, item: true, text });
    });
    return blocks;
  }
  if (isRecord(value)) {
    // A record holding lists (a scholar article's details and citing documents): its facts, then its lists.
    const lists = depth === 0 ? Object.entries(value).filter(([, v]) => isItemList(v)) : [];
    const listKeys = new Set(lists.map(([k]) => k));
    const own = facts(value, listKeys);
    const blocks: Block[] = own ? [{ section: key, text: `${key}: ${own}` }] : [];
    for (const [inner, list] of lists) blocks.push(...fieldBlocks(`${key}.${inner}`, list, format, references, depth + 1));
    return blocks;
  }
  return [{ section: 'fields', text: `${key}: ${value}` }];
}

function dataBlocks(data: Json): Block[] {
  const format = typeof data.format === 'string' ? data.format : undefined;
  const scalars = Object.entries(data).filter(([key, value]) => isScalar(value) && !SKIP_KEYS.has(key) && !PAGING_KEYS.has(key));
  const blocks: Block[] =
    scalars.length > 0 ? [{ section: 'fields', text: scalars.map(([key, value]) => `${key}: ${value}`).join('; ') }] : [];
  const references = new Set(Array.isArray(data.reference_list) ? data.reference_list.map(String) : []);
  if (Object.keys(data).some((key) => TRENDS_KEYS.has(key))) blocks.push(...renderTrends(data));
  for (const [key, value] of Object.entries(data)) {
    if (SKIP_KEYS.has(key) || PAGING_KEYS.has(key) || TRENDS_KEYS.has(key) || isScalar(value)) continue;
    if (key === 'reference_list' && typeof data.format === 'string' && Array.isArray(value)) {
      if (value.length > 0)
        blocks.push({ section: key, text: `reference_list (${data.format}):\n${value.map(String).join('\n')}` });
      continue;
    }
    blocks.push(...fieldBlocks(key, value, format, references));
  }
  return blocks;
}

/** The paging fields the endpoints share, in whichever of their two places they are. */
function renderPaging(data: Json): string | undefined {
  const paging = isRecord(data.pagination) ? data.pagination : data;
  if (typeof paging.next_page === 'number') return `Next page: call again with page=${paging.next_page}.`;
  if (typeof data.next_pn === 'number') return `Next page: call again with pn=${data.next_pn}.`;
  if (paging.has_more === true && typeof paging.page === 'number') return `Next page: call again with page=${paging.page + 1}.`;
  return undefined;
}

/** Fits the blocks in `room` characters, in order; says how many items of each list were cut. */
function fit(blocks: Block[], room: number): { kept: Block[]; cut: string | undefined } {
  const kept: Block[] = [];
  const cut = new Map<string, number>();
  const total = new Map<string, number>();
  let used = 0;
  let full = false;
  for (const block of blocks) {
    if (block.item) total.set(block.section, (total.get(block.section) ?? 0) + 1);
    if (!full && used + block.text.length + 2 <= room) {
      kept.push(block);
      used += block.text.length + 2;
      continue;
    }
    full = true;
    if (block.item) cut.set(block.section, (cut.get(block.section) ?? 0) + 1);
    else if (!cut.has(block.section)) cut.set(block.section, 0);
  }
  if (cut.size === 0) return { kept, cut: undefined };
  const parts = [...cut].map(([section, n]) => (n > 0 ? `the last ${n} of ${total.get(section)} ${section}` : `${section}`));
  return {
    kept,
    cut: `[Cut to ${TEXT_MAX} characters: ${parts.join(', ')} not shown here; structuredContent has every field, or ask for fewer results per page.]`,
  };
}

/** The text of a successful call: the whole answer a model needs, within TEXT_MAX characters. */
export function renderSuccess(message: string, data: unknown, _route?: string): string {
  if (!isRecord(data)) return clip(`${message}\n${JSON.stringify(data)}`, TEXT_MAX);
  const note = typeof data.note === 'string' ? data.note : undefined;
  const paging = renderPaging(data);
  const head = [message, note].filter(Boolean).join('\n\n');
  const tail = paging ?? '';
  // The cut line, the head and the paging are never cut; the data's blocks share what is left.
  const room = TEXT_MAX - head.length - tail.length - 300;
  const { kept, cut } = fit(dataBlocks(data), room);
  // A list's items follow its heading line by line; sections are a blank line apart.
  const body = kept.map((block, i) => (i === 0 ? '' : block.item ? '\n' : '\n\n') + block.text).join('');
  return clip([head, body, cut, tail].filter(Boolean).join('\n\n'), TEXT_MAX);
}

/** What a caller can do about each error, as an agent can act on it. */
const ADVICE: Record<ErrorCode, (retryAfter: number | undefined) => string> = {
  MALFORMED_JSON: () => 'Send the arguments as a JSON object.',
  INVALID_REQUEST: () => 'Correct the fields named above (the tool’s input schema gives every rule) and call again.',
  UNAUTHORIZED: () => 'Configure the MCP client with a valid API key (Authorization: Bearer <key>).',
  NOT_FOUND: () => 'This tool has no endpoint behind it; list the tools again.',
  METHOD_NOT_ALLOWED: () => 'This tool has no endpoint behind it; list the tools again.',
  PAYLOAD_TOO_LARGE: () => 'Send shorter arguments.',
  UNSUPPORTED_MEDIA_TYPE: () => 'Send the arguments as a JSON object.',
  RATE_LIMITED: (s) => `Too many requests at once: wait ${s ?? 'a few'} seconds, then call again, one call at a time.`,
  BUDGET_EXHAUSTED: (s) =>
    `${s === undefined ? 'Do not retry until the window named above resets' : `Do not retry for ${s} seconds (until ${new Date(Date.now() + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z')})`}: every call before then is refused. ` +
    'Answers already cached are still free; the usage tool shows the budget.',
  BUDGET_UNAVAILABLE: (s) => `Retry in ${s ?? 'a few'} seconds.`,
  UPSTREAM_QUOTA_EXCEEDED: (s) =>
    `${s === undefined ? 'Retry later' : `Retry in ${s} seconds`}; if it says the plan is used up, tell the user: retrying will not help today.`,
  UPSTREAM_ERROR: () => 'Retry once, or use another search tool (another engine) for the same question.',
  UPSTREAM_ENGINE_RETIRED: () =>
    'Do not retry: this search is no longer offered. Use another tool for the same need (the details above may name one).',
  UPSTREAM_TIMEOUT: () => 'Retry once, with fewer results per page (results, num) if the tool has them.',
  SERVICE_MISCONFIGURED: () => 'Not fixable by retrying: tell the user the service’s operator must check the deployment.',
  INTERNAL_ERROR: () => 'Retry once; if it fails again, tell the user and quote the request id above.',
};

/** Another engine for the same need, where the service has one; cite search and the Google-only tools have none. */
function otherEngine(route: string | undefined): string {
  if (route === undefined) return 'or use another search tool (another engine) for the same question';
  if (route.startsWith('web-search-')) return 'or use another web_search_* tool (another engine) for the same question';
  if (route === 'cite-search' || route.startsWith('scholar-'))
    return 'then tell the user: Google Scholar is the only scholarly index here, so there is no other engine to try';
  return 'then tell the user: no other engine here answers this';
}

/** What to try for a slow answer, by the page-size field the tool has. */
const SMALLER_PAGE: Record<string, string> = {
  'cite-search': 'with fewer `results` (and without `export`)',
  'scholar-profiles': 'with a smaller `num` and `enrich`',
  'scholar-author': 'with a smaller `num`',
  'web-search-alpha': 'with a smaller `num`',
};

export function renderError(
  code: ErrorCode,
  message: string,
  details: string,
  retryAfter: number | undefined,
  route?: string,
): string {
  let advice = ADVICE[code]?.(retryAfter) ?? 'Retry once.';
  if (route !== undefined && code === 'UPSTREAM_ERROR') advice = `Retry once, ${otherEngine(route)}.`;
  if (route !== undefined && code === 'UPSTREAM_ENGINE_RETIRED')
    advice = `Do not retry: this search is no longer offered${route.startsWith('web-search-') ? '; use another web_search_* tool' : ''}.`;
  if (route !== undefined && code === 'UPSTREAM_TIMEOUT')
    advice = `Retry once${SMALLER_PAGE[route] ? `, ${SMALLER_PAGE[route]}` : ''}.`;
  return `Error ${code}: ${message}. ${details}\nWhat to do: ${advice}`;
}
