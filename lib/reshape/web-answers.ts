/**
 * The answers a result page gives beside its results, as the web-search endpoints carry them: "People also
 * ask" entries with their answer whatever its type, Google's answer box, a knowledge graph summary (Google
 * and DuckDuckGo), and DuckDuckGo's news. Each reads SerpApi's blocks tolerantly: a block the upstream did
 * not send is left out (undefined), never invented.
 */
import { type AiOverview, aiOverviewContent, PEOPLE_ALSO_ASK_HELD_BACK_NOTE } from './ai-overview.js';
import { isRecord, list, record, text } from './values.js';
import { nonBlank, type ResultFacts, resultFacts } from './web.js';

/** A "People also ask" entry: the question and the source of its answer, with the answer itself. */
export interface PeopleAlsoAsk {
  question: string;
  snippet: string | null;
  title: string | null;
  link: string | null;
  displayed_link: string | null;
  /** Google's kind of answer: featured_snippet, ai_overview, … */
  type?: string;
  date?: string;
  /** A list answer's items. */
  list?: string[];
  /** A table answer's rows. */
  table?: string[][];
  /**
   * An AI overview answer: its text blocks and references (`inline`), or, when Google holds it back for a
   * request of its own, no text and a note saying so (`not_fetched`).
   */
  ai_overview?: AiOverview;
}

/** Plain strings of a list whose items are strings, or records with a title and a snippet. */
export function textItems(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((item) =>
      isRecord(item) ? [nonBlank(item.title), nonBlank(item.snippet)].filter(Boolean).join(' ') : (nonBlank(item) ?? ''),
    )
    .filter((item) => item !== '');
}

function tableRows(value: unknown): string[][] {
  if (!Array.isArray(value)) return [];
  return value.filter((row): row is unknown[] => Array.isArray(row)).map((row) => row.map((cell) => text(cell) ?? ''));
}

/**
 * Whether a "People also ask" entry holds only the token of its AI overview: since 2026 Google often holds a
 * question's overview back for a request of its own, and SerpApi then gives `page_token` and
 * `serpapi_ai_overview_link` in place of the text.
 */
function overviewHeldBack(item: Record<string, unknown>): boolean {
  return nonBlank(item.page_token) !== undefined || nonBlank(item.serpapi_ai_overview_link) !== undefined;
}

/**
 * SerpApi's `related_questions` as `people_also_ask`: the contract's fields as before, then the answer's
 * type, date, list items, table rows or AI overview where the entry has them. An AI overview entry has no
 * snippet of its own: its first text block is the excerpt of its answer. One whose overview Google held
 * back says so (`not_fetched` with a note), as the page's own overview does: its tokens are not followed
 * (docs/decisions.md §14, §23).
 */
export function reshapePeopleAlsoAsk(value: unknown): PeopleAlsoAsk[] {
  return list(value).map((item) => {
    const content = aiOverviewContent(item);
    const overview: AiOverview | undefined = content
      ? { state: 'inline', ...content, note: null, error: null }
      : overviewHeldBack(item)
        ? { state: 'not_fetched', text_blocks: [], references: [], note: PEOPLE_ALSO_ASK_HELD_BACK_NOTE, error: null }
        : undefined;
    const entry: PeopleAlsoAsk = {
      question: text(item.question) ?? '',
      snippet: text(item.snippet) ?? overview?.text_blocks[0]?.text ?? null,
      title: text(item.title),
      link: text(item.link),
      displayed_link: text(item.displayed_link),
    };
    const type = nonBlank(item.type);
    if (type) entry.type = type;
    const date = nonBlank(item.date);
    if (date) entry.date = date;
    const items = textItems(item.list);
    if (items.length > 0) entry.list = items;
    const rows = tableRows(item.table);
    if (rows.length > 0) entry.table = rows;
    if (overview) entry.ai_overview = overview;
    return entry;
  });
}

/** Google's direct answer above the results: its kind, a summary in fixed fields, and every other value it gives. */
export interface AnswerBox {
  /** SerpApi's kind of answer box: organic_result, calculator_result, weather_result, finance_results, … */
  type: string | null;
  title: string | null;
  /** The answer itself where the box states one (`answer`, or `result` for a calculator or a conversion). */
  answer: string | null;
  snippet: string | null;
  list: string[];
  link: string | null;
  displayed_link: string | null;
  source: string | null;
  date: string | null;
  /**
   * Every other value of the box, under SerpApi's names and in its shape (a weather box's temperature,
   * unit, forecast by day and by hour; a stock's price and movement; a word's definitions), whatever its
   * type: a type the summary has no field for is carried all the same. Pictures and the upstream's own
   * links and tokens are left out (ANSWER_BOX_LEFT_OUT_ENDINGS).
   */
  details: Record<string, unknown>;
}

/** The keys of an answer box the summary's fields read: not repeated in `details` when the summary holds them whole. */
export const ANSWER_BOX_SUMMARISED = [
  'type',
  'title',
  'answer',
  'result',
  'snippet',
  'list',
  'link',
  'displayed_link',
  'source',
  'date',
] as const;

/**
 * Keys left out of an answer box's details at any depth, by their ending (the key itself, or `…_<ending>`):
 * pictures, the upstream's own links and tokens, and the highlighting of words its text already holds.
 */
export const ANSWER_BOX_LEFT_OUT_ENDINGS = [
  'thumbnail',
  'thumbnails',
  'image',
  'images',
  'logo',
  'favicon',
  'icon',
  'serpapi_link',
  'redirect_link',
  'stick',
  'highlighted_words',
] as const;

/** Whether a key ends in one of the endings: the key itself, or `…_<ending>`. */
export function endsWithOneOf(key: string, endings: readonly string[]): boolean {
  return endings.some((ending) => key === ending || key.endsWith(`_${ending}`));
}

/** A value as the box gave it, without the keys left out and without empty values; undefined when nothing is left. */
function boxValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(boxValue).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value)
      .filter(([key]) => !endsWithOneOf(key, ANSWER_BOX_LEFT_OUT_ENDINGS))
      .map(([key, inner]) => [key, boxValue(inner)] as const)
      .filter(([, inner]) => inner !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return undefined;
}

/** The answer box, or undefined when the answer has none (SerpApi documents it as an object, at times a list of them). */
export function reshapeAnswerBox(value: unknown): AnswerBox | undefined {
  const box = Array.isArray(value) ? list(value)[0] : isRecord(value) ? value : undefined;
  if (!box) return undefined;
  // A summarised key whose value the summary holds whole is not repeated; one it holds only in part (a
  // source with its link, a list of items with links) is kept whole in details too.
  const wholeInSummary = (value: unknown) =>
    typeof value === 'string' ||
    typeof value === 'number' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'));
  const rest = Object.fromEntries(
    Object.entries(box).filter(
      ([key, value]) => !((ANSWER_BOX_SUMMARISED as readonly string[]).includes(key) && wholeInSummary(value)),
    ),
  );
  const summary: AnswerBox = {
    type: nonBlank(box.type) ?? null,
    title: nonBlank(box.title) ?? null,
    answer: nonBlank(box.answer) ?? nonBlank(box.result) ?? null,
    snippet: nonBlank(box.snippet) ?? null,
    list: textItems(box.list),
    link: nonBlank(box.link) ?? null,
    displayed_link: nonBlank(box.displayed_link) ?? null,
    source: nonBlank(box.source) ?? nonBlank(record(box.source).name) ?? null,
    date: nonBlank(box.date) ?? null,
    details: record(boxValue(rest)),
  };
  const says =
    summary.title ?? summary.answer ?? summary.snippet ?? summary.link ?? summary.list[0] ?? Object.keys(summary.details)[0];
  return says === undefined || says === null ? undefined : summary;
}

export interface KnowledgeGraph {
  title: string | null;
  /** What the entity is ("Beverages", "Technology company"). */
  type: string | null;
  description: string | null;
  /** Where the description comes from ("Wikipedia") and its page. */
  source: string | null;
  link: string | null;
  facts: { label: string; value: string }[];
}

/** The most facts a summary carries. */
export const KNOWLEDGE_GRAPH_FACTS_MAX = 20;

/**
 * Keys of Google's knowledge graph that are not facts about the entity: its own fields and identifiers,
 * and (by their endings) links, ids and pictures. Everything else that is text is a fact (`born`,
 * `founded`, `headquarters`, `website`, …): SerpApi gives Google's facts as keys of the block itself, and
 * DuckDuckGo's in `facts`, where every key is one.
 */
export const KNOWLEDGE_GRAPH_NOT_FACTS = ['title', 'type', 'description', 'kgmid', 'entity_type', 'sources_include'] as const;
/** `stick`: Google's opaque token for a block of the panel (`songs_about_coffee_stick`), no fact. */
export const KNOWLEDGE_GRAPH_NOT_FACT_ENDINGS = ['link', 'links', 'id', 'thumbnail', 'image', 'images', 'logo', 'stick'] as const;

/** Whether a key of Google's knowledge graph names a fact (see KNOWLEDGE_GRAPH_NOT_FACTS). */
export function isFactKey(key: string): boolean {
  return !(KNOWLEDGE_GRAPH_NOT_FACTS as readonly string[]).includes(key) && !endsWithOneOf(key, KNOWLEDGE_GRAPH_NOT_FACT_ENDINGS);
}

/** The knowledge graph panel summarised, or undefined when the answer has none. */
export function reshapeKnowledgeGraph(value: unknown): KnowledgeGraph | undefined {
  if (!isRecord(value)) return undefined;
  const facts: KnowledgeGraph['facts'] = [];
  const addFacts = (from: Record<string, unknown>, isFact: (key: string) => boolean) => {
    for (const [key, raw] of Object.entries(from)) {
      const said = typeof raw === 'string' || typeof raw === 'number' ? nonBlank(raw) : undefined;
      if (said && isFact(key)) facts.push({ label: key.replace(/_/g, ' '), value: said });
    }
  };
  addFacts(value, isFactKey);
  addFacts(record(value.facts), () => true);
  const source = record(value.source);
  const summary: KnowledgeGraph = {
    title: nonBlank(value.title) ?? null,
    type: nonBlank(value.type) ?? null,
    description: nonBlank(value.description) ?? null,
    source: nonBlank(source.name) ?? nonBlank(value.source) ?? null,
    link: nonBlank(source.link) ?? null,
    facts: facts.slice(0, KNOWLEDGE_GRAPH_FACTS_MAX),
  };
  return summary.title === null && summary.description === null ? undefined : summary;
}

/** A news story a web engine shows beside its results (DuckDuckGo's `news_results`). */
export interface NewsResult extends Pick<ResultFacts, 'date' | 'source'> {
  title: string;
  link: string;
  snippet: string;
}

export function reshapeNewsResults(value: unknown): NewsResult[] {
  return list(value)
    .filter((item) => nonBlank(item.link) !== undefined)
    .map((item) => {
      const { date, source } = resultFacts(item);
      return {
        title: text(item.title) ?? '',
        link: text(item.link) ?? '',
        snippet: text(item.snippet) ?? '',
        ...(date ? { date } : {}),
        ...(source ? { source } : {}),
      };
    });
}
