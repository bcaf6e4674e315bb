/**
 * What a model reads before it picks a tool: what the endpoint searches, when to prefer it, what a call
 * costs in paid searches and how to page. Keyed by the route's name in lib/routes.ts. A route missing
 * here still becomes a tool, described by its summary and cost line from the routes table; this text only
 * makes the choice easier for a model.
 */

/** Said of every tool that can spend: the one rule about cost a model can act on. */
export const COST_NOTE =
  'Paid searches count against the team’s hourly, monthly and per-key daily budget; cached answers are free (see the usage tool).';

export const TOOL_GUIDES: Record<string, string> = {
  'web-search-alpha':
    'General web search on Google (engine alpha). The default choice for web questions in most languages: organic results with titles, links and snippets, "people also ask" questions and related searches. ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99 with `num` results per page (at most 10); the answer says whether a next page exists.',
  'web-search-bravo':
    'Web search on DuckDuckGo (engine bravo). Prefer it for a second, independent opinion, for a `region` (e.g. de-de) or for recent results with `date` (day, week, month, year). Query at most 500 characters. ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99.',
  'web-search-charlie':
    'Web search on Bing (engine charlie). Prefer it for a market-specific view (`market` such as en-GB, or `cc` country; not both). ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99.',
  'web-search-delta':
    'Web search on Baidu (engine delta). Prefer it for Chinese-language queries and sites in mainland China; filter by `site`, dates (`date_from`, `date_to`) and script (`ct`). ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99 (10 a page) or an explicit result offset `pn`.',
  'cite-search':
    'Scholarly paper search (Google Scholar): each paper cited in MLA, APA, Chicago, Harvard, Vancouver and any CSL `styles`, a reference list in `format`; `export` adds BibTeX, RIS, CSL-JSON and DOIs. ' +
    'Every paper is cited from its Crossref record or else from what the index says of it (`citation_gaps` lists what such a record lacks). Cost: 1 paid search per call; `citation_source: "index"` adds a cite call per paper not cached. ' +
    'Paging: `page` 0–99, `results` papers per page.',
  'cite-resolve':
    'Resolve up to 50 DOIs or free-text references (any style) to their Crossref records and cite each in MLA, APA, Chicago, Harvard, Vancouver and any CSL `styles` (ids from cite_styles); `export` adds BibTeX, RIS, CSL-JSON. ' +
    'Never a guess: `doi` is null with a `reason` when unsure. Free: no paid search. No paging.',
  'cite-styles':
    'Find CSL citation style ids (~10,800 journal and society styles) by `query` ("nature") or `field` ("medicine"), for `styles` of cite_resolve and cite_search. Free. Paging: `page`, `results`.',
  'scholar-profiles':
    'Google Scholar author profiles by name or research tag (e.g. label:machine_learning), found through the authors that scholarly search results link, best match first. ' +
    'Cost: 1 paid search, plus 1 per profile filled from its profile page (`enrich`, default 5, 0–10); the others carry only name, author_id and link. Paging: `page` with `num` profiles per page (1–20).',
  'scholar-author':
    'One Google Scholar author by `author_id` (e.g. LSsXyncAAAAJ): profile, citation metrics and their articles, sorted by citations, date or title. ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99 with `num` articles per page (1–100).',
  'scholar-author-citation':
    'One article from an author’s Scholar page (`citation_id` as <author_id>:<article_id>, from scholar_author) with its details and the first page of documents citing it. ' +
    'Cost: 2 paid searches per call (the article, then the citing documents).',
  'alpha-trends':
    'Google Trends: search interest over time and by region for 1–5 comma-free terms, optionally for a `geo`, `timeframe` and `category`. ' +
    'Cost: 2 paid searches per call (made in parallel). No paging.',
  'alpha-news':
    'News search on Google News: recent articles with source, date and link. Prefer it over web search for current events. ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99.',
  'alpha-images':
    'Image search on Google Images with size, colour, type, licence and aspect-ratio filters; results carry the image and its page links. ' +
    'Cost: 1 paid search per call. Paging: `page` 0–99.',
  usage:
    'Where the search budget stands: searches used and left this hour and this month for the deployment, and today for your key, with when each window resets. ' +
    'Free: makes no paid search. Call it before a long series of searches, or after a BUDGET_EXHAUSTED error.',
};

/** Titles that name the engine behind each tool (lib/upstream/engines.ts); the tool names stay. */
export const TOOL_TITLES: Record<string, string> = {
  'web-search-alpha': 'Google web search',
  'web-search-bravo': 'DuckDuckGo web search',
  'web-search-charlie': 'Bing web search',
  'web-search-delta': 'Baidu web search (Chinese-language queries)',
  'cite-search': 'Google Scholar papers with formatted citations',
  'cite-resolve': 'Resolve DOIs and references, cite them in any CSL style (free)',
  'cite-styles': 'Find CSL citation style ids (free)',
  'scholar-profiles': 'Google Scholar author profiles by name or tag',
  'scholar-author': 'Google Scholar author: profile, metrics, articles',
  'scholar-author-citation': 'Google Scholar article with the documents citing it',
  'alpha-trends': 'Google Trends: interest over time and by region',
  'alpha-news': 'Google News search',
  'alpha-images': 'Google Images search',
  usage: 'Search budget left (free)',
};

export function toolTitle(route: { name: string; summary: string }): string {
  return TOOL_TITLES[route.name] ?? route.summary;
}

/** Said once in the description of a tool with free-text fields, whose patterns the schema leaves out. */
export const TEXT_RULE = 'Text fields take no control characters.';

/**
 * Field descriptions that say in words a rule the compact schema leaves out (a long pattern or code
 * list); the endpoint still enforces the rule, and its error names the field. By route name, then field.
 */
export const FIELD_NOTES: Record<string, Record<string, string>> = {
  // Every route's field: said shorter than the OpenAPI document says it.
  // The byte limit stays in the error that names the field; it matters for Chinese queries (delta, below).
  '*': { no_cache: 'Skip the caches (a search is then paid again)', q: 'Search terms', query: 'Search terms' },
  'cite-search': {
    country: 'Accepted for compatibility; no effect',
    citation_source:
      '"auto": citations rendered here from each paper\'s Crossref record, else from the index\'s record of it (free); "index": the index\'s cite call per paper (paid unless cached)',
    format: 'reference_list format: MLA, APA, Chicago, Harvard, Vancouver, or a CSL style id',
    styles: "Up to 5 CSL style ids (from cite_styles), each in every paper's styled_citations",
    results: 'Papers per page',
    citation_markup: '"text", or "html": italics as inline HTML',
    export: "Any of csl-json, bibtex, ris: each paper's record and DOI (free, from Crossref)",
  },
  'cite-resolve': {
    references: 'Up to 50 DOIs (bare, doi:, https://doi.org/) or free-text references, answered in order',
    styles: 'Up to 5 CSL style ids (from cite_styles), each in styled_citations',
    citation_markup: '"text", or "html": italics as inline HTML',
    export: 'Any of csl-json, bibtex, ris',
  },
  'alpha-images': {
    size: 'Image size; small is over 400×300, xlarge over 4 MP, xxlarge over 10 MP',
    color: 'Colour',
    type: 'Image type',
    license: 'Usage rights',
    aspect_ratio: 'Aspect ratio',
  },
  'cite-styles': { query: "Words of a style's id or title, or a field name; blank lists all", field: 'A field, e.g. medicine' },
  'scholar-profiles': {
    query: 'Author name, or a research tag such as label:machine_learning',
    country: 'Accepted for compatibility; no effect',
  },
  'web-search-delta': {
    q: 'Search terms; at most 4096 bytes once URL-encoded (a Chinese character takes 9)',
    date_from: 'Only results published on or after this date, YYYY-MM-DD',
    date_to: 'Only results published on or before this date, YYYY-MM-DD; not before date_from',
  },
  'alpha-trends': {
    category:
      'Google Trends category id (integer); 0 all categories (default), e.g. 3 Arts & Entertainment, 5 Computers & Electronics, 7 Finance, 16 News, 20 Sports, 45 Health, 67 Travel, 71 Food & Drink. ' +
      'Others: the category menu of trends.google.com/explore (its cat= URL parameter); an unknown id is refused',
  },
};

/** The routes whose tools declare an output schema: small data a client may read field by field. */
export const OUTPUT_SCHEMA_ROUTES: ReadonlySet<string> = new Set(['usage']);

/** Routes that never make a paid search: their tools carry no budget rule. */
export const FREE_ROUTES: ReadonlySet<string> = new Set(['usage', 'cite-resolve', 'cite-styles']);

/** Routes that reach nothing outside the service: the budget counter and the style catalogue. */
export const CLOSED_WORLD_ROUTES: ReadonlySet<string> = new Set(['usage', 'cite-styles']);

/** The tool's description: its guide when written, else the route's summary; always the budget rule. */
export function toolDescription(route: { name: string; summary: string; path: string }): string {
  const guide = TOOL_GUIDES[route.name] ?? `${route.summary}.`;
  const cost = FREE_ROUTES.has(route.name) ? '' : ` ${COST_NOTE}`;
  return `${guide}${cost} (API: POST ${route.path})`;
}

/** A tool name models and clients accept everywhere: the route's name in snake case. */
export function toolName(routeName: string): string {
  return routeName.replaceAll('-', '_');
}
