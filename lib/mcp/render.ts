/**
 * The text a tool result carries beside its structured data, for clients and models that read only
 * text: the summary, the top items of each result list with their titles and links, a citation search's
 * reference list, and how to get the next page. Written over any endpoint's data, so a new route needs
 * nothing here. Errors: the code, the details and what to do.
 */
import type { ErrorCode } from '../errors.js';

/** Items listed per result list: enough to choose from, short enough for a model's context. */
const TOP_ITEMS = 5;
const SNIPPET_CHARS = 240;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const firstText = (item: Json, keys: readonly string[]) => {
  for (const key of keys) {
    const value = item[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (typeof value === 'number') return String(value);
  }
  return undefined;
};
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const TITLE_KEYS = ['title', 'name', 'question', 'query', 'location'];
const LINK_KEYS = ['link', 'source_url', 'url', 'original', 'serpapi_link'];
const SNIPPET_KEYS = ['snippet', 'publication', 'source', 'affiliations', 'date'];

function renderItem(item: unknown, n: number): string | undefined {
  if (typeof item === 'string') return `${n}. ${clip(item, SNIPPET_CHARS)}`;
  if (!isRecord(item)) return undefined;
  const title = firstText(item, TITLE_KEYS);
  if (!title) return undefined;
  const link = firstText(item, LINK_KEYS);
  const snippet = firstText(item, SNIPPET_KEYS);
  return [`${n}. ${title}`, link && `   ${link}`, snippet && `   ${clip(snippet, SNIPPET_CHARS)}`].filter(Boolean).join('\n');
}

/** One section per list of titled items; the reference list of a citation search in full. */
function renderLists(data: Json): string[] {
  const sections: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'reference_list' && Array.isArray(value) && value.length > 0) {
      sections.push(`reference_list:\n${value.map(String).join('\n')}`);
      continue;
    }
    if (!Array.isArray(value) || value.length === 0 || key === 'url_list' || key === 'citation_details') continue;
    const lines = value
      .slice(0, TOP_ITEMS)
      .map((item, i) => renderItem(item, i + 1))
      .filter((line): line is string => line !== undefined);
    if (lines.length === 0) continue;
    const more = value.length > TOP_ITEMS ? ` (top ${TOP_ITEMS} of ${value.length})` : '';
    sections.push(`${key}${more}:\n${lines.join('\n')}`);
  }
  return sections;
}

/** The paging fields the endpoints share, in whichever of their two places they are. */
function renderPaging(data: Json): string | undefined {
  const paging = isRecord(data.pagination) ? data.pagination : data;
  if (typeof paging.next_page === 'number') return `Next page: call again with page=${paging.next_page}.`;
  if (typeof data.next_pn === 'number') return `Next page: call again with pn=${data.next_pn}.`;
  if (paging.has_more === true && typeof paging.page === 'number') return `Next page: call again with page=${paging.page + 1}.`;
  return undefined;
}

/** The text of a successful call. Anything not listed is in structuredContent. */
export function renderSuccess(message: string, data: unknown): string {
  if (!isRecord(data)) return `${message}\n${JSON.stringify(data)}`;
  const sections = renderLists(data);
  const note = typeof data.note === 'string' ? data.note : undefined;
  const paging = renderPaging(data);
  // A result with no titled lists (usage, trends) is small: the data itself says it best.
  const body = sections.length > 0 ? sections.join('\n\n') : JSON.stringify(data, null, 1);
  return [message, note, body, paging, sections.length > 0 ? 'Every field is in the structured result.' : undefined]
    .filter(Boolean)
    .join('\n\n');
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

export function renderError(code: ErrorCode, message: string, details: string, retryAfter: number | undefined): string {
  const advice = ADVICE[code]?.(retryAfter) ?? 'Retry once.';
  return `Error ${code}: ${message}. ${details}\nWhat to do: ${advice}`;
}
