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
  tag: 'Web search' | 'Alpha services' | 'Citation search';
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
];
