/**
 * What a model reads before it picks a tool: what the endpoint searches, when to prefer it and what a call
 * costs in paid searches, keyed by the route's name in lib/routes.ts. What every tool shares (the budget,
 * the cache, paging, text fields, errors) is said once, in the server's instructions, so that the tool
 * list stays small in a model's context (a test holds it under 250 tokens a tool). A route missing here
 * still becomes a tool, described by its summary; this text only makes the choice easier for a model.
 */

/**
 * What every tool shares, said once in the server's instructions (`initialize` and `server/discover`)
 * rather than in each of the descriptions: the budget, the cache, paging, text fields and errors.
 */
export const SERVER_INSTRUCTIONS =
  'Web search (Google, DuckDuckGo, Bing, Baidu), news, images, Google Trends and Google Scholar, and papers cited in MLA, APA, Chicago, Harvard, Vancouver or any CSL style. ' +
  "Every tool: a call costs the paid searches its description gives (Cost), counted against the team's hourly, monthly and per-key daily budget, and is refused before any search when the budget cannot cover them all; answers from the cache are free, and `no_cache: true` skips the cache (and pays again). " +
  '`page` starts at 0, and a result says how to ask for the next one. Text fields take no control characters; codes and enum values any letter case. ' +
  'A tool error says what to do; after BUDGET_EXHAUSTED do not retry before the time it gives. The usage tool (free) shows the budget. ' +
  'Prefer web_search_alpha for general web questions, cite_search for papers with their citations, cite_resolve to cite DOIs or a reference list (free), cite_check to check one; for longer lists (cite_resolve takes 50 references, cite_check 100), jobs_submit, then jobs_status and jobs_results.';

export const TOOL_GUIDES: Record<string, string> = {
  'web-search-alpha':
    'Google web search: organic results with dates, "people also ask" answers, answer box, knowledge graph, AI overview. The default for web questions. Cost 1 (2 with `fetch_ai_overview` when Google holds it back). `num` ≤ 10.',
  'web-search-bravo':
    'DuckDuckGo web search: an independent second opinion, with `region` (e.g. de-de) and `date` (day, week, month, year) filters. Cost 1.',
  'web-search-charlie': 'Bing web search, market-specific: `market` (e.g. en-GB) or `cc` country, not both. Cost 1.',
  'web-search-delta':
    'Baidu web search, for Chinese-language queries and sites in mainland China; `site`, date and script (`ct`) filters. Cost 1. Pages: `page` (10 a page) or the result offset `pn`.',
  'cite-search':
    "Google Scholar papers, each cited in MLA, APA, Chicago, Harvard, Vancouver (from Crossref, else the index's record; `citation_gaps` says what it lacks) and any CSL `styles`; `export`: BibTeX, RIS, CSL-JSON. " +
    'Cost 1; `citation_source: "index"`: +1 per paper not cached.',
  'cite-resolve':
    'Resolve up to 50 DOIs or free-text references and cite each in the five formats and any CSL `styles`; `export` adds BibTeX, RIS, CSL-JSON. Never a guess: `doi` is null with a `reason` when unsure. Free.',
  'cite-check':
    'Check up to 100 references (text, BibTeX, RIS, CSL-JSON, or one `bibliography`) against Crossref and DataCite: verified, mismatch (issues by field), retracted, not_found (says where it looked), ambiguous, unreadable. Free; `scholar: true` adds Google Scholar, cost 1 per reference no registry confirmed.',
  'cite-styles':
    'Find CSL citation style ids (~10,800 journal and society styles) by name or field, for `styles` of cite_resolve and cite_search. Free.',
  'scholar-profiles':
    'Google Scholar author profiles by name or research tag (label:machine_learning), best match first. Cost 1, plus 1 per profile filled in from its page (`enrich`); `enrich: 0` costs 1.',
  'scholar-author':
    'One Google Scholar author by `author_id` (e.g. LSsXyncAAAAJ): profile, citation metrics and articles, sorted by citations, date or title. Cost 1.',
  'scholar-author-citation':
    "One article of an author's Scholar page (`citation_id` <author_id>:<article_id>, from scholar_author) with its details, citations per year and the documents citing it. Cost 2.",
  'alpha-trends': 'Google Trends: interest over time and by region for 1–5 comma-free terms. Cost 2.',
  'alpha-news': 'Google News: recent articles with source, date and link; prefer it for current events. Cost 1.',
  'alpha-images': 'Google Images, with size, colour, type, licence and aspect-ratio filters. Cost 1.',
  usage:
    'The search budget: used and left this hour, this month and today for your key, and when each resets. Free; call it before a long series of searches.',
  'jobs-submit':
    'Resolve or check a long reference list (up to 10,000 references, or one BibTeX, RIS, CSL-JSON or pasted bibliography) in the background: kind "resolve" answers each as cite_resolve does, "check" as cite_check does (without Google Scholar); returns a job_id at once. Free. Then jobs_status until done, and jobs_results.',
  'jobs-status':
    "A job's progress: queued, running, done, failed or cancelled; references answered, by outcome; failed ones by index; seconds left. Free.",
  'jobs-results':
    "A job's results in input order, a page at a time (`next_cursor`); once it has ended, `format` gives them as one BibTeX, RIS or CSL-JSON list. Free.",
  'jobs-cancel': 'Stop a job; what it answered stays readable. Free.',
};

export const TOOL_TITLES: Record<string, string> = {
  'web-search-alpha': 'Google web search',
  'web-search-bravo': 'DuckDuckGo web search',
  'web-search-charlie': 'Bing web search',
  'web-search-delta': 'Baidu web search (Chinese-language queries)',
  'cite-search': 'Google Scholar papers with formatted citations',
  'cite-resolve': 'Resolve DOIs and references, cite them in any CSL style (free)',
  'cite-check': 'Check a reference list: fabricated, garbled or retracted references',
  'cite-styles': 'Find CSL citation style ids (free)',
  'scholar-profiles': 'Google Scholar author profiles by name or tag',
  'scholar-author': 'Google Scholar author: profile, metrics, articles',
  'scholar-author-citation': 'Google Scholar article with the documents citing it',
  'alpha-trends': 'Google Trends: interest over time and by region',
  'alpha-news': 'Google News search',
  'alpha-images': 'Google Images search',
  usage: 'Search budget left (free)',
  'jobs-submit': 'Resolve or check a long reference list as a background job (free)',
  'jobs-status': 'Progress of a reference job (free)',
  'jobs-results': "A reference job's results, paged or as BibTeX, RIS, CSL-JSON (free)",
  'jobs-cancel': 'Cancel a reference job (free)',
};

export function toolTitle(route: { name: string; summary: string }): string {
  return TOOL_TITLES[route.name] ?? route.summary;
}

/**
 * Field descriptions that say in words a rule the compact schema leaves out (a long pattern or code
 * list), or say it shorter than the OpenAPI document; the endpoint still enforces every rule, and its
 * error names the field. By route name, then field; `*` for every route. An empty text leaves the field
 * without a description: its name and type say it (the shared ones are in the server's instructions).
 */
export const FIELD_NOTES: Record<string, Record<string, string>> = {
  // The byte limit stays in the error that names the field; it matters for Chinese queries (delta, below).
  '*': { q: '', query: '', no_cache: '', page: '' },
  'web-search-alpha': { location: 'e.g. Austin, Texas', language: "Google's code, e.g. en or zh-cn", num: '' },
  'web-search-bravo': { region: 'e.g. de-de', date: '', safe_search: '' },
  'web-search-charlie': { market: 'Bing code, e.g. en-GB; not with cc', cc: 'e.g. gb; not with market', safe_search: '' },
  'cite-search': {
    country: 'No effect',
    citation_source: '"index": the index\'s own cite call per paper',
    format: 'reference_list style: one of the five or a CSL style id',
    styles: 'CSL style ids (from cite_styles), each in styled_citations',
    results: 'Papers a page',
    citation_markup: '"html": italics as inline HTML',
    export: '',
  },
  'cite-check': {
    references: 'Or give bibliography',
    bibliography: 'A .bib, .ris, CSL-JSON array or pasted list',
    scholar: '',
    styles: 'CSL style ids (from cite_styles)',
    citation_markup: '',
    export: '',
  },
  'cite-resolve': {
    references: 'DOIs (bare, doi:, https://doi.org/) or free-text references, answered in order',
    styles: 'CSL style ids (from cite_styles), each in styled_citations',
    citation_markup: '"html": italics as inline HTML',
    export: '',
  },
  'alpha-images': {
    size: 'small: over 400×300, xlarge: over 4 MP, xxlarge: over 10 MP',
    color: '',
    type: '',
    license: '',
    aspect_ratio: '',
    location: 'e.g. Austin, Texas',
  },
  'alpha-news': { location: 'e.g. Austin, Texas' },
  'jobs-submit': {
    kind: '"resolve" or "check"',
    references: 'DOIs or free-text references; or give bibliography instead',
    bibliography: 'One .bib or .ris file, a CSL-JSON array, or a pasted list; or give references instead',
    options: 'styles, citation_markup, export, as cite_resolve and cite_check take them',
    webhook: '{url, secret}: POSTed, signed, when the job ends',
  },
  'jobs-status': { job_id: '' },
  'jobs-results': { job_id: '', cursor: 'next_cursor of the page before', limit: '', format: 'One list, once the job has ended' },
  'jobs-cancel': { job_id: '' },
  'cite-styles': { query: "Words of a style's id or title, or a field; blank lists all", field: 'e.g. medicine' },
  'scholar-profiles': {
    query: 'Author name, or a research tag such as label:machine_learning',
    country: 'No effect',
    num: 'Profiles a page',
    enrich:
      'Profiles from the top filled in from their page (affiliation, citations, interests), 1 paid search each; the others carry name, author_id and link only',
  },
  'scholar-author': { author_id: 'e.g. LSsXyncAAAAJ', language: "Google's code, e.g. en", sort: '', num: 'Articles a page' },
  'web-search-delta': {
    q: 'At most 4096 bytes URL-encoded (a Chinese character takes 9)',
    pn: 'Result offset; wins over page',
    ct: '',
    site: '',
    date_from: 'YYYY-MM-DD',
    date_to: 'YYYY-MM-DD, not before date_from',
  },
  'alpha-trends': {
    queries: 'Terms to compare, no commas',
    geo: 'Location code: a country (US), region (US-CA) or metro (807); worldwide when absent',
    timeframe:
      'now 1-H, now 4-H, now 1-d, now 7-d, today 1-m, today 3-m, today 12-m (default), today 5-y, all, or "YYYY-MM-DD YYYY-MM-DD" from 2004',
    category:
      'Category id: 0 all (default), e.g. 5 Computers & Electronics, 7 Finance, 16 News, 20 Sports, 45 Health, 71 Food & Drink; ' +
      'others: the cat= of trends.google.com/explore',
  },
};

/** Routes that never make a paid search. */
export const FREE_ROUTES: ReadonlySet<string> = new Set([
  'usage',
  'cite-resolve',
  'cite-styles',
  'jobs-submit',
  'jobs-status',
  'jobs-results',
  'jobs-cancel',
]);

/** Routes that reach nothing outside the service: the budget counter, the style catalogue, a job's store. */
export const CLOSED_WORLD_ROUTES: ReadonlySet<string> = new Set([
  'usage',
  'cite-styles',
  'jobs-status',
  'jobs-results',
  'jobs-cancel',
]);

/**
 * Routes whose call changes something, with the hints MCP reads then: a submission starts a job (each call
 * a new one), a cancel stops one (again, nothing more). Every other tool only reads.
 */
export const CHANGING_ROUTES: Readonly<Record<string, { destructiveHint: boolean; idempotentHint: boolean }>> = {
  'jobs-submit': { destructiveHint: false, idempotentHint: false },
  'jobs-cancel': { destructiveHint: true, idempotentHint: true },
};

/** The tool's description: its guide when written, else the route's summary. */
export function toolDescription(route: { name: string; summary: string }): string {
  return TOOL_GUIDES[route.name] ?? `${route.summary}.`;
}

/** A tool name models and clients accept everywhere: the route's name in snake case. */
export function toolName(routeName: string): string {
  return routeName.replaceAll('-', '_');
}
