/** POST /v1/web-search/delta: web search on engine delta (SerpApi `baidu`), for Chinese-language queries. */
import * as z from 'zod/mini';
import { countMessage } from '../lib/envelope.js';
import { api } from '../lib/middleware/index.js';
import { reshapePaging, reshapeRelatedSearches, reshapeWebResults } from '../lib/reshape/web.js';
import { body, formats, integer, oneOf, optionalText, page, searchTerms } from '../lib/schema.js';

const PAGE_SIZE = 10;
const SCRIPT = { all: '1', simplified: '2', traditional: '3' } as const;

export const requestSchema = body({
  q: searchTerms(),
  page: page(),
  pn: integer({ min: 0, max: 990, description: 'Result offset; when absent it is page × 10, when present it wins' }),
  ct: oneOf(['all', 'simplified', 'traditional'], 'Script of the results: simplified or traditional Chinese, or all'),
  site: optionalText({
    max: 253,
    format: { pattern: '[a-zA-Z0-9.\\-]+\\.[a-zA-Z]{2,}', hint: 'a host name such as example.com' },
    description: 'Only results from this site',
  }),
  date_from: optionalText({ max: 10, format: formats.isoDate, description: 'Only results published on or after this date' }),
  date_to: optionalText({
    max: 10,
    format: formats.isoDate,
    description: 'Only results published on or before this date; not before date_from',
  }),
}).check(
  // An inverted range can only come back empty, yet the upstream would bill it.
  z.refine((b) => !b.date_from || !b.date_to || b.date_from <= b.date_to, {
    error: 'must not be before date_from',
    path: ['date_to'],
  }),
);
export type DeltaRequest = z.output<typeof requestSchema>;

function withNextOffset<P extends { has_more: boolean }>(paging: P, next: number) {
  return { ...paging, next_pn: paging.has_more ? next : null };
}

export function resultOffset(request: DeltaRequest): number {
  return request.pn ?? request.page * PAGE_SIZE;
}

/** Baidu's time filter: `stf=<from>,<to>|stftype=1` in Unix seconds; an open end is now or the epoch. */
export function toTimeFilter(from?: string, to?: string): string | undefined {
  if (!from && !to) return undefined;
  const start = from ? Date.parse(`${from}T00:00:00Z`) / 1000 : 0;
  const end = to ? Date.parse(`${to}T23:59:59Z`) / 1000 : Math.floor(Date.now() / 1000);
  return `stf=${start},${end}|stftype=1`;
}

export function toSerpApiParams(request: DeltaRequest) {
  return {
    q: request.q,
    pn: resultOffset(request),
    ct: request.ct && SCRIPT[request.ct],
    q6: request.site,
    gpc: toTimeFilter(request.date_from, request.date_to),
  };
}

export function reshapeDelta(json: Record<string, unknown>, request: DeltaRequest) {
  const offset = resultOffset(request);
  return {
    Delta_data: reshapeWebResults(json.organic_results, offset, PAGE_SIZE),
    related_searches: reshapeRelatedSearches(json.related_searches),
    // With pn the page is where that offset falls; next_pn continues from it exactly.
    pagination: withNextOffset(reshapePaging(json, Math.floor(offset / PAGE_SIZE)), offset + PAGE_SIZE),
  };
}

export const handler = api({ body: requestSchema }).handler(async ({ body, upstream }) => {
  const data = reshapeDelta(await upstream.search('webDelta', toSerpApiParams(body)), body);
  return { data, message: countMessage(data.Delta_data.length) };
});
