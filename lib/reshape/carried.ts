/**
 * What each endpoint carries of its upstream answers, field by field: one list of paths per endpoint and
 * SerpApi engine, in the form `organic_results[].date` (`[]` marks a list; it is optional in a pattern).
 * A segment `*` matches any one key (a glob such as `*_link` part of one), `**` anything below; a
 * pattern starting with `!` takes back what the others match, and one starting with `~` is read but not
 * shown as it came (a paging link becomes `has_more`, a token fetches what it points to). The web
 * endpoints list every field; the others list the blocks their reshapers read (`~block.**`).
 *
 * Two things read it: `npm run smoke --upstream` reports every field of SerpApi's answers that no pattern
 * matches (so a block the upstream starts sending shows up), and the tests on real answers check that
 * every value at a listed path is in the endpoint's answer (so the list cannot claim what is not carried).
 */
import { ANSWER_BOX_LEFT_OUT_ENDINGS, KNOWLEDGE_GRAPH_NOT_FACT_ENDINGS, KNOWLEDGE_GRAPH_NOT_FACTS } from './web-answers.js';

/** Blocks of every SerpApi answer that say how the search ran, not what it found: never reported. */
export const BOOKKEEPING_BLOCKS = ['search_metadata', 'search_parameters'] as const;

const each = (prefix: string, fields: readonly string[]) => fields.map((field) => `${prefix}.${field}`);

/** A list of items as a list answer gives them: plain strings, or items with a title, a snippet and a list of their own. */
function listItems(prefix: string, depth: number): string[] {
  return [
    prefix,
    ...each(prefix, ['title', 'snippet', 'reference_indexes']),
    ...(depth > 0 ? listItems(`${prefix}[].list[]`, depth - 1) : []),
  ];
}

/** An AI overview's text blocks and references (lib/reshape/ai-overview.ts reads these, nested blocks two deep). */
function aiOverviewPaths(prefix: string): string[] {
  const blocks = (at: string, depth: number): string[] => [
    ...each(at, ['type', 'title', 'subtitle', 'snippet', 'reference_indexes', 'table[][]', 'product_labels[]']),
    ...each(at, ['comparison[].feature', 'comparison[].values[]']),
    ...each(at, ['top_stories[].title', 'top_stories[].source', 'top_stories[].link']),
    ...listItems(`${at}.list[]`, 3),
    ...(depth > 0 ? blocks(`${at}.text_blocks[]`, depth - 1) : []),
  ];
  return [
    ...blocks(`${prefix}.text_blocks[]`, 2),
    ...each(`${prefix}.references[]`, ['index', 'title', 'link', 'source', 'snippet']),
  ];
}

/** A result's facts (lib/reshape/web.ts resultFacts) and its sitelinks in any of their forms. */
function resultPaths(prefix: string, fields: readonly string[]): string[] {
  return [
    ...each(prefix, [...fields, 'date', 'date_raw', 'source', 'favicon']),
    ...['sitelinks.expanded[]', 'sitelinks.inline[]', 'sitelinks.list[]', 'sitelinks[]'].flatMap((at) =>
      each(`${prefix}.${at}`, ['title', 'link']),
    ),
  ];
}

/** The knowledge graph summary (lib/reshape/web-answers.ts): its own fields, its source, and every fact. */
const KNOWLEDGE_GRAPH = [
  ...each('knowledge_graph', ['title', 'type', 'description', 'source.name', 'source.link', 'source', 'facts.*', '*']),
  ...KNOWLEDGE_GRAPH_NOT_FACTS.filter((key) => !['title', 'type', 'description'].includes(key)).map(
    (key) => `!knowledge_graph.${key}`,
  ),
  ...KNOWLEDGE_GRAPH_NOT_FACT_ENDINGS.flatMap((ending) => [`!knowledge_graph.${ending}`, `!knowledge_graph.*_${ending}`]),
];

/**
 * The answer box (lib/reshape/web-answers.ts): every value of it, whatever its type, but for the keys left
 * out at any depth (pictures, the upstream's own links and tokens), taken back here to five levels deep.
 */
const ANSWER_BOX = [
  'answer_box.**',
  ...ANSWER_BOX_LEFT_OUT_ENDINGS.flatMap((ending) =>
    [0, 1, 2, 3, 4].flatMap((depth) => {
      const above = ['answer_box', ...Array.from({ length: depth }, () => '*')].join('.');
      return [`!${above}.${ending}`, `!${above}.*_${ending}`];
    }),
  ),
];

const PAGING = ['~pagination.**', '~serpapi_pagination.**'];
// SerpApi's are objects; some answers give plain strings, read as the query.
const RELATED_SEARCHES = [...each('related_searches[]', ['query', 'link']), 'related_searches[]'];

/** Per endpoint (lib/routes.ts names), per SerpApi engine, the paths carried. */
export const CARRIED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'web-search-alpha': {
    google: [
      ...each('search_information', ['query_displayed', 'total_results', 'time_taken_displayed']),
      'search_metadata.google_url',
      ...resultPaths('organic_results[]', ['position', 'title', 'link', 'displayed_link', 'snippet']),
      ...each('related_questions[]', ['question', 'type', 'snippet', 'title', 'link', 'displayed_link', 'date']),
      ...listItems('related_questions[].list[]', 0),
      'related_questions[].table[][]',
      ...aiOverviewPaths('related_questions[]'),
      // A "People also ask" overview held back: its token says so, and is not followed.
      '~related_questions[].page_token',
      ...RELATED_SEARCHES,
      ...ANSWER_BOX,
      ...KNOWLEDGE_GRAPH,
      ...aiOverviewPaths('ai_overview'),
      '~ai_overview.page_token',
      'ai_overview.error',
      ...PAGING,
    ],
    google_ai_overview: [...aiOverviewPaths('ai_overview'), 'ai_overview.error'],
  },
  'web-search-bravo': {
    duckduckgo: [
      ...resultPaths('organic_results[]', ['position', 'title', 'link', 'snippet']),
      ...RELATED_SEARCHES,
      ...KNOWLEDGE_GRAPH,
      ...each('news_results[]', ['title', 'link', 'snippet', 'date', 'source']),
      ...PAGING,
    ],
  },
  'web-search-charlie': {
    bing: [
      ...resultPaths('organic_results[]', ['position', 'title', 'link', 'displayed_link', 'snippet']),
      ...RELATED_SEARCHES,
      ...PAGING,
    ],
  },
  'web-search-delta': {
    baidu: [...resultPaths('organic_results[]', ['position', 'title', 'link', 'snippet']), ...RELATED_SEARCHES, ...PAGING],
  },
  'alpha-news': { google: ['~news_results.**', ...PAGING] },
  'alpha-images': { google_images: ['~images_results.**'] },
  'alpha-trends': { google_trends: ['~interest_over_time.**', '~interest_by_region.**', '~compared_breakdown_by_region.**'] },
  'cite-search': {
    google_scholar: ['~organic_results.**', 'search_information.total_results', ...PAGING],
    google_scholar_cite: ['~citations.**', '~links.**'],
  },
  'scholar-profiles': {
    google_scholar: ['~organic_results.**', ...PAGING],
    google_scholar_author: ['~author.**', '~cited_by.**', '~articles.**', '~co_authors.**', '~public_access.**'],
  },
  'scholar-author': {
    google_scholar_author: ['~author.**', '~articles.**', '~cited_by.**', '~co_authors.**', '~public_access.**', ...PAGING],
  },
  'scholar-author-citation': {
    google_scholar_author: ['~citation.**'],
    google_scholar: ['~organic_results.**', ...PAGING],
  },
};

type Segment = string;
type Leaf = { path: string; segments: Segment[]; value: string | number | boolean | null };

/** A path's segments without the list marks: `organic_results[].date` is `organic_results`, `date`. */
function segmentsOf(path: string): Segment[] {
  return path.split('.').map((segment) => segment.replace(/(\[\])+$/, ''));
}

function segmentMatches(pattern: Segment, segment: Segment): boolean {
  if (pattern === '*' || pattern === segment) return true;
  if (!pattern.includes('*')) return false;
  const glob = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return glob.test(segment);
}

/** Whether the pattern matches the whole path (`**` matches the rest, however deep). */
function matches(pattern: Segment[], path: Segment[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '**') return true;
    if (i >= path.length || !segmentMatches(pattern[i] as string, path[i] as string)) return false;
  }
  return pattern.length === path.length;
}

/** Whether something below this prefix could match the pattern. */
function reaches(pattern: Segment[], prefix: Segment[]): boolean {
  for (let i = 0; i < prefix.length; i++) {
    if (pattern[i] === '**') return true;
    if (i >= pattern.length || !segmentMatches(pattern[i] as string, prefix[i] as string)) return false;
  }
  return true;
}

interface CompiledPatterns {
  /** Shown in the answer as it came. */
  shown: Segment[][];
  /** Read, not shown as it came. */
  read: Segment[][];
  takeBack: Segment[][];
}

function compile(patterns: readonly string[]): CompiledPatterns {
  return {
    shown: patterns.filter((p) => !p.startsWith('!') && !p.startsWith('~')).map(segmentsOf),
    read: patterns.filter((p) => p.startsWith('~')).map((p) => segmentsOf(p.slice(1))),
    takeBack: patterns.filter((p) => p.startsWith('!')).map((p) => segmentsOf(p.slice(1))),
  };
}

function matchedBy(compiled: CompiledPatterns, segments: Segment[], which: 'shown' | 'read'): boolean {
  return compiled[which].some((p) => matches(p, segments)) && !compiled.takeBack.some((p) => matches(p, segments));
}

/** Every scalar of an answer with its path (`related_questions[].list[]`); `bookkeeping: false` leaves those blocks out. */
export function leaves(json: Record<string, unknown>, { bookkeeping = true } = {}): Leaf[] {
  const found: Leaf[] = [];
  const walk = (value: unknown, path: string, segments: Segment[]) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, `${path}[]`, segments);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`, [...segments, key]);
    } else {
      found.push({ path, segments, value: value as Leaf['value'] });
    }
  };
  for (const [key, value] of Object.entries(json)) {
    if (bookkeeping || !(BOOKKEEPING_BLOCKS as readonly string[]).includes(key)) walk(value, key, [key]);
  }
  return found;
}

/** The leaves of an answer that the patterns say are shown as they came, with their values. */
export function carriedLeaves(patterns: readonly string[], json: Record<string, unknown>): Leaf[] {
  const compiled = compile(patterns);
  return leaves(json).filter((leaf) => matchedBy(compiled, leaf.segments, 'shown'));
}

/**
 * What of an answer the patterns neither show nor read, each named at the highest level nothing below is:
 * a whole block (`local_results`) when none of it is, else the field (`organic_results[].redirect_link`).
 * Bookkeeping blocks are left out. Sorted, each once.
 */
export function notCarried(patterns: readonly string[], json: Record<string, unknown>): string[] {
  const compiled = compile(patterns);
  const used = [...compiled.shown, ...compiled.read];
  const names = new Set<string>();
  for (const leaf of leaves(json, { bookkeeping: false })) {
    if (matchedBy(compiled, leaf.segments, 'shown') || matchedBy(compiled, leaf.segments, 'read')) continue;
    const shown = leaf.path.split('.');
    let depth = 1;
    while (depth < leaf.segments.length && used.some((p) => reaches(p, leaf.segments.slice(0, depth)))) depth++;
    names.add(shown.slice(0, depth).join('.'));
  }
  return [...names].sort();
}
