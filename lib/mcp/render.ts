/**
 * The text a tool result carries beside its structured data, for clients and models that read only
 * text: everything the structured data holds, compactly (a test holds text ⊇ structuredContent on every
 * tool's answers, but for `displayed_link` and thumbnails). Every item of every list: its title, link and
 * whole snippet, then its other facts on one line; nested facts inline (`{key: value; …}`), a list of
 * named links as `name <link>`, a list of small records as a table row each (a scholar's citations per
 * year). Every paper or reference with its citations, one line per format, where they come from and why
 * a fallback happened, and its exports when asked; Google Trends' values as tables; how to get the next
 * page. Written over any endpoint's data (a new route needs nothing here), capped at TEXT_MAX characters
 * with a line that says what was cut and how to ask for less with this tool. Errors: the code, the
 * details and what to do, as fits the tool.
 */
import type { ErrorCode } from '../errors.js';

/** The most text a result carries (about 6,000 tokens); the cut is said, and structuredContent has it all. */
export const TEXT_MAX = 24_000;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);
const firstKey = (item: Json, keys: readonly string[]) =>
  keys.find((key) => {
    const value = item[key];
    return (typeof value === 'string' && value.trim() !== '') || typeof value === 'number';
  });
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

// A "people also ask" answer leads with its question, whatever title its answer has.
const TITLE_KEYS = ['question', 'title', 'name', 'query', 'location', 'reference'];
const LINK_KEYS = ['link', 'source_url', 'url', 'original'];
const SNIPPET_KEYS = ['snippet', 'description'];
/** Left out of the text: a duplicate of the link, and pictures (structuredContent has them). */
export const TEXT_LEFT_OUT: ReadonlySet<string> = new Set(['displayed_link', 'thumbnail', 'thumbnails', 'serpapi_thumbnail']);
/** The item's number in its list, where the data gives it. */
const NUMBER_KEYS = ['position', 'rank', 'index'];

/**
 * A list of small records all of one shape (scalars only, at most five keys): said as a table, a row a
 * record, so that a scholar's citations per year read `year, citations: 2021 61; 2022 55`.
 */
function tableRow(value: unknown[]): string | undefined {
  if (value.length === 0 || !value.every(isRecord)) return undefined;
  const keys = Object.keys(value[0] as Json);
  // Named links read better as `name <link>` (inline).
  if (keys.some((key) => TITLE_KEYS.includes(key) || LINK_KEYS.includes(key))) return undefined;
  if (keys.length === 0 || keys.length > 5) return undefined;
  const same = value.every(
    (row) =>
      Object.keys(row).length === keys.length && keys.every((key) => key in row && (row[key] === null || isScalar(row[key]))),
  );
  if (!same) return undefined;
  return `${keys.join(', ')}: ${value.map((row) => keys.map((key) => oneLine(String((row as Json)[key] ?? '–'))).join(' ')).join('; ')}`;
}

/** A nested value on one line, whole: scalars as they are, named links as `name <link>`, records in braces. */
export function inline(value: unknown): string | undefined {
  if (isEmpty(value)) return undefined;
  if (isScalar(value)) return oneLine(String(value));
  if (Array.isArray(value)) {
    if (value.every(isScalar)) return value.map((item) => oneLine(String(item))).join(', ');
    const table = tableRow(value);
    if (table !== undefined) return table;
    return value
      .map((item) => inline(item))
      .filter((text): text is string => text !== undefined)
      .join(' | ');
  }
  if (isRecord(value)) {
    const titleKey = firstKey(value, TITLE_KEYS);
    const linkKey = firstKey(value, LINK_KEYS);
    const said = new Set([titleKey, linkKey].filter((key): key is string => key !== undefined));
    const rest = Object.entries(value)
      .filter(([key, inner]) => !said.has(key) && !TEXT_LEFT_OUT.has(key) && !isEmpty(inner))
      .map(([key, inner]) => `${key}: ${inline(inner)}`);
    if (titleKey !== undefined) {
      const named = `${oneLine(String(value[titleKey]))}${linkKey ? ` <${value[linkKey]}>` : ''}`;
      return rest.length > 0 ? `${named} {${rest.join('; ')}}` : named;
    }
    if (linkKey !== undefined) rest.unshift(`${linkKey}: ${value[linkKey]}`);
    return rest.length > 0 ? `{${rest.join('; ')}}` : undefined;
  }
  return undefined;
}

/** The facts of a record other than those already said, as "key: value; …". */
function facts(item: Json, skip: ReadonlySet<string>): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(item)) {
    if (skip.has(key) || TEXT_LEFT_OUT.has(key)) continue;
    const text = inline(value);
    if (text !== undefined) parts.push(`${key}: ${text}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** What a list's renderer knows of the whole answer: the reference list, and each paper's citation details. */
interface Context {
  format: string | undefined;
  references: ReadonlySet<string>;
  details: ReadonlyMap<unknown, Json>;
}

/**
 * A work's citations, a line a format: the asked format as its reference-list entry when the list holds
 * it, where each comes from when it is not the work's own source, and why a fallback happened.
 */
function citationLines(item: Json, context: Context): string[] {
  const citations = item.citations as Json;
  const detail = context.details.get(item.index);
  const formats = Array.isArray(detail?.formats) ? detail.formats.filter(isRecord) : [];
  const sourceOf = new Map(formats.map((format) => [format.name, format.source]));
  const lines: string[] = [];
  for (const [name, text] of Object.entries(citations)) {
    if (typeof text !== 'string' || text.trim() === '') continue;
    const source = sourceOf.get(name);
    const from = source !== undefined && source !== item.citations_source ? ` (from ${source})` : '';
    const listed = name === context.format && context.references.has(`[${item.index}] ${text}`);
    lines.push(`   ${name}${from}: ${listed ? `reference_list [${item.index}]` : oneLine(text)}`);
  }
  const missing = formats.filter((format) => isEmpty(format.text)).map((format) => String(format.name));
  if (missing.length > 0) lines.push(`   no citation in: ${missing.join(', ')}`);
  if (lines.length === 0) lines.push('   citations: none');
  if (isRecord(item.styled_citations)) {
    for (const [style, text] of Object.entries(item.styled_citations)) {
      const said = inline(text);
      if (said !== undefined) lines.push(`   ${style}: ${said}`);
    }
  }
  // An unresolved reference has no source (null): nothing to say, never "undefined".
  const source = inline(item.citations_source);
  const origin = [
    source === undefined ? undefined : `citations_source: ${source}`,
    Array.isArray(item.citation_gaps) && item.citation_gaps.length > 0
      ? `citation_gaps: ${inline(item.citation_gaps)}`
      : undefined,
  ].filter(Boolean);
  if (origin.length > 0) lines.push(`   ${origin.join('; ')}`);
  if (detail) {
    const more = facts(detail, new Set(['index', 'scholar_id', 'formats']));
    if (more) lines.push(`   ${more}`);
  }
  return lines;
}

/** A work's export records, each whole: a reference manager needs every line. */
function exportLines(exports: Json): string[] {
  const lines: string[] = [];
  const origin = facts(exports, new Set(['bibtex', 'ris', 'csl_json']));
  lines.push(`   exports${origin ? ` (${origin})` : ''}:`);
  if (typeof exports.bibtex === 'string') lines.push(exports.bibtex);
  if (typeof exports.ris === 'string') lines.push(exports.ris);
  if (exports.csl_json !== undefined && exports.csl_json !== null) lines.push(`CSL-JSON: ${JSON.stringify(exports.csl_json)}`);
  return lines;
}

/** One item of a list: its number, title, link and snippet, its citations if it has any, then its other facts. */
function renderItem(item: unknown, n: number, context: Context): string | undefined {
  if (isScalar(item)) return `${n}. ${oneLine(String(item))}`;
  if (!isRecord(item)) {
    const said = inline(item);
    return said === undefined ? undefined : `${n}. ${said}`;
  }
  const numberKey = NUMBER_KEYS.find((key) => typeof item[key] === 'number');
  const number = numberKey === undefined ? n : (item[numberKey] as number);
  if (typeof item.verdict === 'string' && typeof item.input === 'string') return renderChecked(item, number);
  const titleKey = firstKey(item, TITLE_KEYS);
  const linkKey = firstKey(item, LINK_KEYS);
  const snippetKey = firstKey(item, SNIPPET_KEYS);
  const said = new Set([numberKey, titleKey, linkKey, snippetKey].filter((key): key is string => key !== undefined));
  const lines = [`${number}. ${titleKey ? oneLine(String(item[titleKey])) : '(untitled)'}`];
  if (linkKey) lines.push(`   ${item[linkKey]}`);
  if (snippetKey) lines.push(`   ${oneLine(String(item[snippetKey]))}`);
  if (isRecord(item.citations)) {
    for (const key of ['citations', 'citations_source', 'citation_gaps', 'styled_citations', 'exports']) said.add(key);
    lines.push(...citationLines(item, context));
  }
  const rest = facts(item, said);
  if (rest) lines.push(`   ${rest}`);
  if (isRecord(item.exports)) lines.push(...exportLines(item.exports));
  return lines.join('\n');
}

/**
 * A checked reference (cite_check): its verdict and the reference first, then what is wrong, field by
 * field, and the rest of its facts; a model acts on the verdict and the issues.
 */
function renderChecked(item: Json, number: number): string {
  const lines = [`${number}. ${item.verdict}: ${oneLine(String(item.input))}`];
  if (typeof item.message === 'string') lines.push(`   ${oneLine(item.message)}`);
  for (const issue of Array.isArray(item.issues) ? item.issues.filter(isRecord) : []) {
    const sides = (['cited', 'recorded'] as const)
      .filter((side) => issue[side] !== null && issue[side] !== undefined)
      .map((side) => `${side}: ${oneLine(String(issue[side]))}`);
    const evidence = sides.length > 0 ? ` (${sides.join('; ')})` : '';
    lines.push(`   - ${issue.severity} ${issue.field} [${issue.rule}]${evidence}: ${oneLine(String(issue.message))}`);
  }
  const rest = facts(item, new Set(['verdict', 'input', 'message', 'issues', 'index', 'exports']));
  if (rest) lines.push(`   ${rest}`);
  if (isRecord(item.exports)) lines.push(...exportLines(item.exports));
  return lines.join('\n');
}

/** Term values as a table: one row per time slot or region, one column per term. */
function valueTable(rows: unknown[], label: (row: Json) => string): string[] {
  const records = rows.filter(isRecord);
  const first = records.find((row) => Array.isArray(row.values));
  const terms = Array.isArray(first?.values) ? first.values.map((v) => (isRecord(v) ? String(v.query) : '')) : [];
  const cell = (v: unknown) => {
    if (!isRecord(v)) return '–';
    const shown = String(v.formatted_value ?? v.value ?? '–');
    // The value itself too, where the formatted one does not show it ("<1" for 0).
    return v.value !== undefined && v.value !== null && !shown.includes(String(v.value)) ? `${shown} (${v.value})` : shown;
  };
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
    const [head, ...rows] = valueTable(
      timeline,
      (row) =>
        `${row.date}${row.timestamp !== undefined ? ` [${row.timestamp}]` : ''}${row.partial === true ? ' (partial)' : ''}`,
    );
    blocks.push({
      section: 'interest_over_time',
      text: `interest_over_time (${time?.granularity ?? 'slots'}; 0–100, 100 = peak; [unix time]):\ndate ${head}`,
    });
    for (const row of rows) blocks.push({ section: 'interest_over_time', item: true, text: row });
  }
  const averages = Array.isArray(time?.averages) ? time.averages.filter(isRecord) : [];
  if (averages.length > 0)
    blocks.push({ section: 'averages', text: `averages: ${averages.map((a) => `${a.query} ${a.value ?? '–'}`).join(', ')}` });
  const regions = Array.isArray(data.interest_by_region) ? data.interest_by_region : [];
  if (regions.length > 0) {
    const [head, ...rows] = valueTable(
      regions,
      (row) =>
        `${row.location}${row.geo ? ` (${row.geo})` : ''}${typeof row.max_value_index === 'number' ? ` [${row.max_value_index}]` : ''}`,
    );
    blocks.push({
      section: 'interest_by_region',
      text: `interest_by_region ([max_value_index]: the leading term's column, from 0):\nregion ${head}`,
    });
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
/**
 * Said elsewhere: the note (in the head), each paper's citation details (with the paper), the URL list
 * (each paper's own link) and the message.
 */
const SAID_ELSEWHERE = new Set(['note', 'url_list', 'citation_details', 'message']);

/** The blocks of one top-level field: a list item by item, a record as its facts and lists, a value as itself. */
function fieldBlocks(key: string, value: unknown, context: Context, depth = 0): Block[] {
  if (isEmpty(value)) return [];
  if (Array.isArray(value)) {
    if (value.every(isScalar))
      return [{ section: key, text: `${key}:\n${value.map((item) => oneLine(String(item))).join('\n')}` }];
    const table = tableRow(value);
    if (table !== undefined) return [{ section: key, text: `${key} (${table.replace(/: /, '): ')}` }];
    const blocks: Block[] = [{ section: key, text: `${key} (${value.length}):` }];
    value.forEach((item, i) => {
      const text = renderItem(item, i + 1, context);
      if (text) blocks.push({ section: key, item: true, text });
    });
    return blocks;
  }
  if (isRecord(value)) {
    // A record holding lists of results (a scholar article and the documents citing it): its facts, then its lists.
    const lists =
      depth === 0
        ? Object.entries(value).filter(
            ([, inner]) =>
              Array.isArray(inner) && inner.some((item) => isRecord(item) && Object.keys(item).length > 2) && !tableRow(inner),
          )
        : [];
    const listKeys = new Set(lists.map(([inner]) => inner));
    const own = facts(value, listKeys);
    const blocks: Block[] = own ? [{ section: key, text: `${key}: ${own}` }] : [];
    for (const [inner, list] of lists) blocks.push(...fieldBlocks(`${key}.${inner}`, list, context, depth + 1));
    return blocks;
  }
  return [{ section: 'fields', text: `${key}: ${inline(value)}` }];
}

function dataBlocks(data: Json): Block[] {
  const format = typeof data.format === 'string' ? data.format : undefined;
  const scalars = Object.entries(data).filter(([key, value]) => isScalar(value) && !SAID_ELSEWHERE.has(key));
  const blocks: Block[] =
    scalars.length > 0
      ? [{ section: 'fields', text: scalars.map(([key, value]) => `${key}: ${oneLine(String(value))}`).join('; ') }]
      : [];
  const references = new Set(Array.isArray(data.reference_list) ? data.reference_list.map(String) : []);
  const details = new Map(
    (Array.isArray(data.citation_details) ? data.citation_details.filter(isRecord) : []).map((detail) => [detail.index, detail]),
  );
  const context: Context = { format, references, details };
  if (Object.keys(data).some((key) => TRENDS_KEYS.has(key))) blocks.push(...renderTrends(data));
  for (const [key, value] of Object.entries(data)) {
    if (SAID_ELSEWHERE.has(key) || TRENDS_KEYS.has(key) || isScalar(value)) continue;
    if (key === 'reference_list' && Array.isArray(value)) {
      if (value.length > 0)
        blocks.push({ section: key, text: `reference_list${format ? ` (${format})` : ''}:\n${value.map(String).join('\n')}` });
      continue;
    }
    blocks.push(...fieldBlocks(key, value, context));
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

/** How to ask a tool for less when its answer is too long for the text, by the field that says how much. */
const ASK_FOR_LESS: Record<string, string> = {
  'cite-search': 'ask for fewer `results` a page (and `export` only what you need)',
  'cite-resolve': 'send fewer `references` a call (and `export` only what you need)',
  'cite-check': 'send fewer `references` a call (and `export` only what you need)',
  'cite-styles': 'ask for fewer `results` a page',
  'scholar-profiles': 'ask for a smaller `num`',
  'scholar-author': 'ask for a smaller `num`',
  'web-search-alpha': 'ask for a smaller `num`',
};

/**
 * Fits the blocks in `room` characters: every heading and record first (they are short and say what the
 * answer is), then the lists' items in order while they fit; says how many items of each list were cut.
 */
function fitBlocks(blocks: Block[], room: number, route: string | undefined): { kept: Block[]; cut: string | undefined } {
  const size = (block: Block) => block.text.length + 2;
  const fixed = blocks.filter((block) => !block.item).reduce((sum, block) => sum + size(block), 0);
  let left = room - Math.min(fixed, room);
  let fixedLeft = Math.min(fixed, room);
  const kept: Block[] = [];
  const cut = new Map<string, number>();
  const total = new Map<string, number>();
  let full = false;
  for (const block of blocks) {
    if (block.item) {
      total.set(block.section, (total.get(block.section) ?? 0) + 1);
      if (!full && size(block) <= left) {
        kept.push(block);
        left -= size(block);
      } else {
        full = true;
        cut.set(block.section, (cut.get(block.section) ?? 0) + 1);
      }
    } else if (size(block) <= fixedLeft) {
      kept.push(block);
      fixedLeft -= size(block);
    } else {
      fixedLeft = 0;
      if (!cut.has(block.section)) cut.set(block.section, 0);
    }
  }
  if (cut.size === 0) return { kept, cut: undefined };
  const parts = [...cut].map(([section, n]) => (n > 0 ? `the last ${n} of ${total.get(section)} ${section}` : `${section}`));
  const less = route === undefined ? undefined : ASK_FOR_LESS[route];
  return {
    kept,
    cut: `[Cut to ${TEXT_MAX} characters: ${parts.join(', ')} not shown here; structuredContent has every field${less ? `, or ${less}` : ''}.]`,
  };
}

/** The text of a successful call: the whole answer, within TEXT_MAX characters. */
export function renderSuccess(message: string, data: unknown, route?: string): string {
  if (!isRecord(data)) return clip(`${message}\n${JSON.stringify(data)}`, TEXT_MAX);
  const note = typeof data.note === 'string' ? data.note : undefined;
  const paging = renderPaging(data);
  const head = [message, note].filter(Boolean).join('\n\n');
  const tail = paging ?? '';
  // The cut line, the head and the paging are never cut; the data's blocks share what is left.
  const room = TEXT_MAX - head.length - tail.length - 400;
  const { kept, cut } = fitBlocks(dataBlocks(data), room, route);
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
  JOB_NOT_FOUND: () =>
    'Check the job_id: a job is readable only with the key that made it, and expires after its time. Submit it again if needed.',
  JOB_NOT_FINISHED: () =>
    'Wait until the status tool says the job has ended, or read its results page by page without `format` now.',
  IDEMPOTENCY_KEY_REUSED: () => 'Send this job with a new Idempotency-Key, or the same body as before to get its job back.',
  METHOD_NOT_ALLOWED: () => 'This tool has no endpoint behind it; list the tools again.',
  PAYLOAD_TOO_LARGE: () => 'Send shorter arguments.',
  UNSUPPORTED_MEDIA_TYPE: () => 'Send the arguments as a JSON object.',
  RATE_LIMITED: (s) => `Too many requests at once: wait ${s ?? 'a few'} seconds, then call again, one call at a time.`,
  BUDGET_EXHAUSTED: (s) =>
    `${s === undefined ? 'Do not retry until the window named above resets' : `Do not retry for ${s} seconds (until ${new Date(Date.now() + s * 1000).toISOString().replace(/\.\d+Z$/, 'Z')})`}: every call before then is refused. ` +
    'Answers already cached are still free; the usage tool shows the budget.',
  BUDGET_UNAVAILABLE: (s) => `Retry in ${s ?? 'a few'} seconds.`,
  SERVICE_UNAVAILABLE: (s) => `The service could not check the key just now: retry in ${s ?? 'a few'} seconds.`,
  UPSTREAM_QUOTA_EXCEEDED: (s) =>
    `${s === undefined ? 'Retry later' : `Retry in ${s} seconds`}; if it says the plan is used up, tell the user: retrying will not help today.`,
  UPSTREAM_ERROR: () => 'Retry once, or use another search tool (another engine) for the same question.',
  UPSTREAM_ENGINE_RETIRED: () =>
    'Do not retry: this search is no longer offered. Use another tool for the same need (the details above may name one).',
  // A provider that does not answer is not made to by a smaller page: one search is one search.
  UPSTREAM_TIMEOUT: () => 'Retry once; if it times out again, try again later (the provider did not answer in time).',
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
  // Refused for asking more than is left, not because nothing is: a smaller call can still be answered.
  if (code === 'BUDGET_EXHAUSTED' && /this request can make/.test(details))
    advice =
      `${/Ask for less:/.test(details) ? 'Call again asking for less, as said above' : 'Do not call this tool again until the window named above has room'}; ` +
      `a tool of cost 1, or an answer already cached, may still be answered. ${ADVICE.BUDGET_EXHAUSTED(retryAfter).replace(': every call before then is refused', ' for this call as it is')}`;
  if (route !== undefined && code === 'UPSTREAM_TIMEOUT')
    advice = `Retry once, ${otherEngine(route)} (the provider did not answer in time; a smaller page would not change that).`;
  return `Error ${code}: ${message}. ${details}\nWhat to do: ${advice}`;
}
