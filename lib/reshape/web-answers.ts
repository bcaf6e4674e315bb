/**
 * The answers a result page gives beside its results, as the web-search endpoints carry them: "People also
 * ask" entries with their answer whatever its type, Google's answer box, a knowledge graph summary (Google
 * and DuckDuckGo), and DuckDuckGo's news. Each reads SerpApi's blocks tolerantly: a block the upstream did
 * not send is left out (undefined), never invented.
 */
import { type AiOverviewContent, aiOverviewContent } from './ai-overview.js';
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
  /** An AI overview answer: its text blocks and references. */
  ai_overview?: AiOverviewContent;
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
 * SerpApi's `related_questions` as `people_also_ask`: the contract's fields as before, then the answer's
 * type, date, list items, table rows or AI overview where the entry has them. An AI overview entry has no
 * snippet of its own: its first text block is the excerpt of its answer.
 */
export function reshapePeopleAlsoAsk(value: unknown): PeopleAlsoAsk[] {
  return list(value).map((item) => {
    const overview = aiOverviewContent(item);
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

/** Google's direct answer above the results, summarised. */
export interface AnswerBox {
  /** SerpApi's kind of answer box: organic_result, calculator_result, weather_result, … */
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
}

/** The answer box, or undefined when the answer has none (SerpApi documents it as an object, at times a list of them). */
export function reshapeAnswerBox(value: unknown): AnswerBox | undefined {
  const box = Array.isArray(value) ? list(value)[0] : isRecord(value) ? value : undefined;
  if (!box) return undefined;
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
  };
  const says = summary.title ?? summary.answer ?? summary.snippet ?? summary.link ?? summary.list[0];
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
export const KNOWLEDGE_GRAPH_NOT_FACT_ENDINGS = ['link', 'links', 'id', 'thumbnail', 'image', 'images', 'logo'] as const;

/** Whether a key of Google's knowledge graph names a fact (see KNOWLEDGE_GRAPH_NOT_FACTS). */
export function isFactKey(key: string): boolean {
  return (
    !(KNOWLEDGE_GRAPH_NOT_FACTS as readonly string[]).includes(key) &&
    !KNOWLEDGE_GRAPH_NOT_FACT_ENDINGS.some((ending) => key === ending || key.endsWith(`_${ending}`))
  );
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
