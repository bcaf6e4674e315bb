/**
 * Every endpoint, once. The local server, the CDK stack and the OpenAPI document all loop over this
 * table, so a new endpoint is one line here plus its file in functions/.
 */
export interface Route {
  /** The POST path, as clients call it. */
  path: string;
  /** The handler's file in functions/, without extension. */
  name: string;
  summary: string;
  tag: 'Web search' | 'Alpha services' | 'Citation search' | 'Usage';
}

export const ROUTES: readonly Route[] = [
  { path: '/v1/web-search/alpha', name: 'web-search-alpha', summary: 'Web search on engine alpha', tag: 'Web search' },
  { path: '/v1/web-search/bravo', name: 'web-search-bravo', summary: 'Web search on engine bravo', tag: 'Web search' },
  { path: '/v1/web-search/charlie', name: 'web-search-charlie', summary: 'Web search on engine charlie', tag: 'Web search' },
  {
    path: '/v1/web-search/delta',
    name: 'web-search-delta',
    summary: 'Web search on engine delta (Chinese-language queries)',
    tag: 'Web search',
  },
  { path: '/v1/cite/search', name: 'cite-search', summary: 'Papers with formatted citations', tag: 'Citation search' },
  {
    path: '/v1/cite/resolve',
    name: 'cite-resolve',
    summary: 'DOIs and free-text references, resolved and cited in any CSL style (no paid call)',
    tag: 'Citation search',
  },
  {
    path: '/v1/cite/styles',
    name: 'cite-styles',
    summary: 'The CSL style catalogue, searched by name or field',
    tag: 'Citation search',
  },
  { path: '/v1/alpha/scholar/profiles', name: 'scholar-profiles', summary: 'Scholar profiles by name', tag: 'Alpha services' },
  { path: '/v1/alpha/scholar/author', name: 'scholar-author', summary: 'One scholar and their articles', tag: 'Alpha services' },
  {
    path: '/v1/alpha/scholar/author-citation',
    name: 'scholar-author-citation',
    summary: "One article of a scholar's page with the documents citing it",
    tag: 'Alpha services',
  },
  { path: '/v1/alpha/trends', name: 'alpha-trends', summary: 'Search interest over time and by region', tag: 'Alpha services' },
  { path: '/v1/alpha/news', name: 'alpha-news', summary: 'News search', tag: 'Alpha services' },
  { path: '/v1/alpha/images', name: 'alpha-images', summary: 'Image search', tag: 'Alpha services' },
  { path: '/v1/usage', name: 'usage', summary: "The search budget: this hour, this month, the caller's day", tag: 'Usage' },
];
