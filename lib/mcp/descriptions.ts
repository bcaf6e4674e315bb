/**
 * What a model reads before it picks a tool: what the endpoint searches, when to prefer it, what a call
 * costs in paid searches and how to page. Keyed by the route's name in lib/routes.ts. A route missing
 * here still becomes a tool, described by its summary and cost line from the routes table; this text only
 * makes the choice easier for a model.
 */

/** Said of every tool that can spend: the one rule about cost a model can act on. */
export const COST_NOTE =
  'Each paid search counts against the team’s hourly, monthly and per-key daily budget; an answer served from the cache costs nothing. Call the usage tool to see what is left.';

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
    'Scholarly paper search (Google Scholar) returning each paper with formatted citations (MLA, APA, Chicago, Harvard, Vancouver) and a reference list in `format`; `export` adds BibTeX, RIS or CSL-JSON records and DOIs (free, from Crossref). ' +
    'Use it to find papers on a topic and cite them. Cost: 1 paid search plus up to one per paper whose citations are neither cached nor rendered from Crossref: at most 1 + `results` (21 at results=20); keep `results` small when you need few papers. ' +
    'Paging: `page` 0–99 with `results` papers per page. Papers whose citations ran out of time are listed with their citations marked unavailable.',
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

/** The tool's description: its guide when written, else the route's summary; always the budget rule. */
export function toolDescription(route: { name: string; summary: string; path: string }): string {
  const guide = TOOL_GUIDES[route.name] ?? `${route.summary}.`;
  const cost = route.name === 'usage' ? '' : ` ${COST_NOTE}`;
  return `${guide}${cost} (API: POST ${route.path})`;
}

/** A tool name models and clients accept everywhere: the route's name in snake case. */
export function toolName(routeName: string): string {
  return routeName.replaceAll('-', '_');
}
