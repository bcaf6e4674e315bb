/**
 * Paging against an upstream that pages as SerpApi documents (test/support/fake-serpapi.ts, realPageSizes):
 * over the first three pages of every paged endpoint, each upstream result appears exactly once, in order,
 * with ranks that continue across pages, and `has_more` says that more follow.
 */
import { describe, expect, it } from 'vitest';
import { type Fault, realPageSizes } from '../support/fake-serpapi.js';
import { useService } from '../support/service.js';

const harness = useService();

interface PagedEndpoint {
  path: string;
  body: Record<string, unknown>;
  /** Results a page holds when the upstream has plenty. */
  pageSize: number;
  /** Each result's upstream link, and its rank where the contract has one. */
  items: (data: Record<string, unknown>) => { link: unknown; rank?: unknown }[];
  /** Where has_more lives. */
  hasMore: (data: Record<string, unknown>) => unknown;
}

type Row = Record<string, unknown>;
const rows = (value: unknown) => value as Row[];
const pagination = (data: Row) => (data.pagination as Row).has_more;

const ENDPOINTS: PagedEndpoint[] = [
  {
    path: '/v1/web-search/alpha',
    body: { q: 'coffee' },
    pageSize: 10,
    items: (d) => rows(d.organic_results).map((r) => ({ link: r.link, rank: r.rank })),
    hasMore: pagination,
  },
  {
    path: '/v1/web-search/alpha',
    body: { q: 'coffee', num: 7 },
    pageSize: 7,
    items: (d) => rows(d.organic_results).map((r) => ({ link: r.link, rank: r.rank })),
    hasMore: pagination,
  },
  {
    path: '/v1/web-search/bravo',
    body: { q: 'coffee' },
    pageSize: 30,
    items: (d) => rows(d.organic_results).map((r) => ({ link: r.link, rank: r.rank })),
    hasMore: pagination,
  },
  {
    path: '/v1/web-search/charlie',
    body: { q: 'coffee' },
    pageSize: 10,
    items: (d) => rows(d.charlie_data).map((r) => ({ link: r.link, rank: r.rank })),
    hasMore: pagination,
  },
  {
    path: '/v1/web-search/delta',
    body: { q: '咖啡' },
    pageSize: 10,
    items: (d) => rows(d.Delta_data).map((r) => ({ link: r.link, rank: r.rank })),
    hasMore: pagination,
  },
  {
    path: '/v1/alpha/news',
    body: { q: 'coffee' },
    pageSize: 10,
    items: (d) => rows(d.news_results).map((r) => ({ link: r.url, rank: r.rank })),
    hasMore: pagination,
  },
  {
    path: '/v1/alpha/images',
    body: { q: 'coffee' },
    pageSize: 100,
    items: (d) => rows(d.images_results).map((r) => ({ link: r.original })),
    hasMore: pagination,
  },
  {
    path: '/v1/alpha/scholar/author',
    body: { author_id: 'LSsXyncAAAAJ' },
    pageSize: 20,
    items: (d) => rows(d.articles).map((r) => ({ link: r.link })),
    hasMore: pagination,
  },
  {
    path: '/v1/cite/search',
    body: { query: 'coffee', results: 10 },
    pageSize: 10,
    items: (d) => rows(d.papers).map((r) => ({ link: r.source_url, rank: r.index })),
    hasMore: (d) => d.has_more,
  },
];

async function firstThreePages(endpoint: PagedEndpoint) {
  const seen: { link: unknown; rank?: unknown }[] = [];
  for (const page of [0, 1, 2]) {
    const reply = await harness.service.post(endpoint.path, { ...endpoint.body, page });
    expect(reply.status, reply.text).toBe(200);
    expect(endpoint.hasMore(reply.json.data), `${endpoint.path} page ${page}: has_more`).toBe(true);
    const items = endpoint.items(reply.json.data);
    expect(items, `${endpoint.path} page ${page} holds a full page`).toHaveLength(endpoint.pageSize);
    seen.push(...items);
  }
  return seen;
}

/** The links results 1…count of the engine's listing have: no gap, no repeat, in order. */
function expectContinuous(seen: { link: unknown; rank?: unknown }[], count: number) {
  const numbers = seen.map(({ link }) => Number(String(link).split('/').pop()));
  expect(numbers).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  if (seen.some((item) => item.rank !== undefined)) {
    expect(seen.map((item) => item.rank)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  }
}

describe.each(ENDPOINTS.map((endpoint) => [`${endpoint.path} ${JSON.stringify(endpoint.body)}`, endpoint] as const))(
  'POST %s over the upstream’s real page sizes',
  (_name, endpoint) => {
    it('serves pages 0, 1 and 2 with every result exactly once, ranks continuing across pages', async () => {
      harness.upstream.respond(realPageSizes);
      expectContinuous(await firstThreePages(endpoint), endpoint.pageSize * 3);
    });
  },
);

describe('paging on engine bravo (DuckDuckGo: up to 35 results on its first page, up to 50 after)', () => {
  it('asks for a fixed 30 with m, from offsets 0, 30 and 60', async () => {
    harness.upstream.respond(realPageSizes);
    await firstThreePages(ENDPOINTS[2] as PagedEndpoint);
    expect(harness.upstream.requests.map((q) => [q.get('start'), q.get('m')])).toEqual([
      ['0', '30'],
      ['30', '30'],
      ['60', '30'],
    ]);
  });

  it('still has no gap or repeat when the upstream ignores m and sends 35, then 50', async () => {
    const ignoringM = (query: URLSearchParams): Fault | undefined => {
      const withoutM = new URLSearchParams(query);
      withoutM.delete('m');
      return realPageSizes(withoutM);
    };
    harness.upstream.respond(ignoringM);
    expectContinuous(await firstThreePages(ENDPOINTS[2] as PagedEndpoint), 90);
  });
});

describe('paging on engine alpha (Google: 10 results a page, no page-size parameter)', () => {
  it('sends no num and asks for offsets page × num', async () => {
    harness.upstream.respond(realPageSizes);
    await firstThreePages(ENDPOINTS[1] as PagedEndpoint);
    expect(harness.upstream.requests.map((q) => [q.get('start'), q.get('num')])).toEqual([
      ['0', null],
      ['7', null],
      ['14', null],
    ]);
  });
});

describe('paging on images (the upstream answers carry no paging links)', () => {
  it('reports has_more from a full page, and none after a short one', async () => {
    harness.upstream.respond(() => ({ json: { images_results: [{ original: 'https://results.example/1' }] } }));
    const short = await harness.service.post('/v1/alpha/images', { q: 'coffee' });
    expect(short.json.data.pagination).toEqual({ current_page: 0, next_page: null, has_more: false });
    harness.upstream.respond(realPageSizes);
    const last = await harness.service.post('/v1/alpha/images', { q: 'coffee', page: 99 });
    expect(last.json.data.pagination).toEqual({ current_page: 99, next_page: null, has_more: false });
  });
});
