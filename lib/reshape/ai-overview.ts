/**
 * Google's AI overviews, as SerpApi gives them, in plain text: the overview at the top of a result page
 * (`ai_overview`), the one a "People also ask" entry of `type: "ai_overview"` holds, and the one the
 * `google_ai_overview` engine answers for a `page_token`. Each text block becomes one plain-text block
 * (a list one item a line, a table one row a line) with the references it cites; the references keep
 * their title, link, source and snippet. SerpApi documents the blocks' types (paragraph, heading, list,
 * expandable, table, comparison, top_stories) at https://serpapi.com/ai-overview; any other type is
 * read for the same fields, so a new one still gives its text.
 */
import type { ErrorCode } from '../errors.js';
import { isRecord, list, record, text } from './values.js';
import { nonBlank } from './web.js';

export interface AiTextBlock {
  /** The block's type as Google names it (paragraph, heading, list, table, expandable, …). */
  type: string;
  text: string;
  /** The `index` of each reference the block (or any item in it) cites, ascending. */
  reference_indexes: number[];
}

export interface AiReference {
  index: number | null;
  title: string | null;
  link: string | null;
  source: string | null;
  snippet: string | null;
}

export interface AiOverviewContent {
  text_blocks: AiTextBlock[];
  references: AiReference[];
}

/**
 * inline: the search answer held it; fetched: one more paid search fetched it (`fetch_ai_overview`);
 * not_fetched: the search answer held only the token to fetch it with, and it was not asked for;
 * failed: it was asked for and could not be had, or Google said it could not make one (`error`).
 */
export type AiOverviewState = 'inline' | 'fetched' | 'not_fetched' | 'failed';

export interface AiOverview extends AiOverviewContent {
  state: AiOverviewState;
  /** Why there is no text, and what to do about it; null when there is text. */
  note: string | null;
  /** For `failed`: the code and details the failure would have answered on its own. */
  error: { code: ErrorCode; details: string } | null;
}

const LIST_MARK = '- ';
const INDENT = '  ';

/** The lines of a list's items, each "- title snippet", nested lists indented under their item. */
function listLines(items: unknown, depth: number): string[] {
  const lines: string[] = [];
  for (const item of list(items)) {
    const said = [nonBlank(item.title), nonBlank(item.snippet)].filter(Boolean).join(' ');
    if (said) lines.push(`${INDENT.repeat(depth)}${LIST_MARK}${said}`);
    lines.push(...listLines(item.list, depth + 1));
  }
  // A list of plain strings (as some blocks give them).
  if (Array.isArray(items)) {
    for (const item of items) {
      const said = typeof item === 'string' ? nonBlank(item) : undefined;
      if (said) lines.push(`${INDENT.repeat(depth)}${LIST_MARK}${said}`);
    }
  }
  return lines;
}

/** A table's rows, cells separated by " | " (the first row is its header when Google gives one). */
function tableLines(rows: unknown): string[] {
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((row): row is unknown[] => Array.isArray(row))
    .map((row) => row.map((cell) => text(cell) ?? '').join(' | '))
    .filter((line) => line.replace(/[|\s]/g, '') !== '');
}

/** Every line a block says, in page order: its title, its text, its list, table, comparison, stories, inner blocks. */
function blockLines(block: Record<string, unknown>): string[] {
  const lines = [nonBlank(block.title), nonBlank(block.subtitle), nonBlank(block.snippet)].filter(
    (line): line is string => line !== undefined,
  );
  lines.push(...listLines(block.list, 0), ...tableLines(block.table));
  const labels = Array.isArray(block.product_labels) ? block.product_labels.map((label) => text(label) ?? '') : [];
  if (labels.length > 0 && list(block.comparison).length > 0) lines.push(labels.join(' | '));
  for (const row of list(block.comparison)) {
    const values = Array.isArray(row.values) ? row.values.map((value) => text(value) ?? '').join(' | ') : '';
    const feature = nonBlank(row.feature);
    if (feature || values) lines.push(feature ? `${feature}: ${values}` : values);
  }
  for (const story of list(block.top_stories)) {
    const said = [nonBlank(story.title), nonBlank(story.source), nonBlank(story.link)].filter(Boolean).join(' · ');
    if (said) lines.push(`${LIST_MARK}${said}`);
  }
  for (const inner of list(block.text_blocks)) lines.push(...blockLines(inner));
  return lines;
}

/** Every reference index a block cites, its items' and inner blocks' included. */
function citedIndexes(block: Record<string, unknown>, into: Set<number>): Set<number> {
  if (Array.isArray(block.reference_indexes)) {
    for (const index of block.reference_indexes) if (Number.isInteger(index) && (index as number) >= 0) into.add(index as number);
  }
  for (const item of [...list(block.list), ...list(block.text_blocks)]) citedIndexes(item, into);
  return into;
}

/** One upstream text block as plain text, or undefined when it holds no text (a picture, a video). */
export function textBlock(block: Record<string, unknown>): AiTextBlock | undefined {
  const said = blockLines(block).join('\n');
  if (said === '') return undefined;
  return {
    type: nonBlank(block.type) ?? 'paragraph',
    text: said,
    reference_indexes: [...citedIndexes(block, new Set())].sort((a, b) => a - b),
  };
}

function reference(item: Record<string, unknown>): AiReference {
  const index = item.index;
  return {
    index: typeof index === 'number' && Number.isInteger(index) ? index : null,
    title: nonBlank(item.title) ?? null,
    link: nonBlank(item.link) ?? null,
    source: nonBlank(item.source) ?? null,
    snippet: nonBlank(item.snippet) ?? null,
  };
}

/** The text blocks and references of an overview (a record holding `text_blocks`), or undefined when it holds no text. */
export function aiOverviewContent(value: unknown): AiOverviewContent | undefined {
  const overview = record(value);
  const blocks = list(overview.text_blocks)
    .map(textBlock)
    .filter((block): block is AiTextBlock => block !== undefined);
  if (blocks.length === 0) return undefined;
  return { text_blocks: blocks, references: list(overview.references).map(reference) };
}

/** No text: fresh arrays for each answer. */
const empty = (): AiOverviewContent => ({ text_blocks: [], references: [] });

/** The note of an overview the search answer only points to. */
export const NOT_FETCHED_NOTE =
  'Google made an AI overview for this search that needs one more paid search to fetch: ask again with "fetch_ai_overview": true';

/**
 * The note of a "People also ask" overview Google held back: its token is not followed (one paid search
 * each, for an answer the page did not show), so the way to it is a search of the question itself.
 */
export const PEOPLE_ALSO_ASK_HELD_BACK_NOTE =
  'Google holds the AI overview answering this question back for a request of its own, which this service does not make for "People also ask" entries (one more paid search each): search the question itself, with "fetch_ai_overview": true, for its overview';

/**
 * What the search answer's `ai_overview` block gives: nothing (no block), the overview itself (inline,
 * or Google's own refusal), or, when it holds only a `page_token`, either the token to fetch it with
 * (`fetchAsked`) or an overview that says it was not fetched and how to ask for it.
 */
export function overviewFromSearch(value: unknown, fetchAsked: boolean): { overview?: AiOverview; pageToken?: string } {
  if (!isRecord(value)) return {};
  const content = aiOverviewContent(value);
  if (content) return { overview: { state: 'inline', ...content, note: null, error: null } };
  const refused = nonBlank(value.error);
  if (refused) return { overview: refusal(refused) };
  const pageToken = nonBlank(value.page_token);
  if (!pageToken) return {};
  if (fetchAsked) return { pageToken };
  return { overview: { state: 'not_fetched', ...empty(), note: NOT_FETCHED_NOTE, error: null } };
}

/** Google's own "Can't generate an AI overview right now", passed on as a failed overview. */
function refusal(said: string): AiOverview {
  return {
    state: 'failed',
    ...empty(),
    note: 'Google made no AI overview this time; a later search may have one',
    error: { code: 'UPSTREAM_ERROR', details: `The search provider could not give Google's AI overview: ${said}` },
  };
}

/**
 * The overview from the follow-up search (`google_ai_overview` with the answer's `page_token`), or what
 * became of it. `searchedAt` is the search answer's own time (`search_metadata.created_at`), said in the
 * note: Google's token works only for minutes after that search, so a search answered from a cache may
 * carry one that no longer does.
 */
export function overviewFromFollowUp(
  outcome: { ok: true; value: Record<string, unknown> } | { ok: false; error: { code: ErrorCode; details: string } },
  searchedAt: string | null,
): AiOverview {
  if (outcome.ok) {
    const answer = outcome.value;
    // SerpApi nests it under `ai_overview`; read a top-level `text_blocks` too.
    const block = isRecord(answer.ai_overview) ? answer.ai_overview : answer;
    const content = aiOverviewContent(block);
    if (content) return { state: 'fetched', ...content, note: null, error: null };
    const refused = nonBlank(block.error);
    if (refused) return refusal(refused);
    return {
      state: 'failed',
      ...empty(),
      note: 'The follow-up search answered without the overview; a later search may have one',
      error: { code: 'UPSTREAM_ERROR', details: 'The search provider answered the AI overview search without its text' },
    };
  }
  const { code, details } = outcome.error;
  const when = searchedAt ? ` (this one ran at ${searchedAt})` : '';
  const note =
    code === 'BUDGET_EXHAUSTED' || code === 'BUDGET_UNAVAILABLE'
      ? 'The search budget refused the follow-up search for the overview; the search itself was answered'
      : `The follow-up search for the overview failed. Google's token for it works only for minutes after its search${when}: ask again with "no_cache": true for a fresh search and overview`;
  return { state: 'failed', ...empty(), note, error: { code, details } };
}
