/**
 * What a request costs, as the README's table of endpoints and the budget guide's cost table say it, held
 * to the code: the cost table (infra/budget.ts) for the fixed costs, and the request schemas for the costs
 * a body decides (scholar profiles' `enrich`, citation search's `results`). A default changed in a schema
 * fails here until both tables say it.
 */
import { describe, expect, it } from 'vitest';
import { requestSchema as citeSearch } from '../../../functions/cite-search.js';
import { requestSchema as profiles } from '../../../functions/scholar-profiles.js';
import { PAID_CALLS_PER_REQUEST } from '../../../infra/budget.js';
import { CHECK_REFERENCES_MAX } from '../../../lib/contract/cite-check.js';
import { ENRICH_MAX } from '../../../lib/contract/scholar-profiles.js';
import { ROUTES } from '../../../lib/routes.js';
import { readDocument } from '../../support/docs-blocks.js';

/** The rows of the Markdown table whose header row starts with `first`, as trimmed cells. */
function table(document: string, first: string): string[][] {
  const lines = readDocument(document).split('\n');
  const start = lines.findIndex((line) => line.replace(/\s+/g, ' ').startsWith(`| ${first} |`));
  expect(start, `${document}: a table headed "${first}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** Routes whose cost depends on the request: the table gives their most, the docs say how. */
const VARIABLE_COST = ['scholar-profiles', 'cite-search', 'web-search-alpha', 'cite-check'];

const cost = (name: string) => {
  const value = PAID_CALLS_PER_REQUEST[name];
  if (value === undefined) throw new Error(`${name} has no entry in the cost table`);
  return value;
};
const enrichDefault = profiles.parse({ query: 'Mike' }).enrich;
/** The most papers one citation search may ask for: the largest `results` its schema accepts. */
const maxResults = Math.max(...[...Array(100).keys()].filter((n) => citeSearch.safeParse({ query: 'x', results: n }).success));

describe('the README’s table of endpoints, column "Paid upstream calls"', () => {
  const rows = table('README.md', 'Path');
  const byPath = new Map(rows.map((row) => [row[0]?.replace(/`/g, ''), row[3] ?? '']));

  it('has one row per route', () => {
    expect([...byPath.keys()].sort()).toEqual(ROUTES.map((route) => route.path).sort());
  });

  it.each(ROUTES.filter((route) => !VARIABLE_COST.includes(route.name)).map((route) => [route.path, route.name]))(
    '%s costs what the cost table gives',
    (path, name) => {
      expect(byPath.get(path)).toBe(String(cost(name)));
    },
  );

  it('scholar profiles: the search, plus one per profile filled (`enrich`, its default and its maximum)', () => {
    expect(cost('scholar-profiles')).toBe(1 + ENRICH_MAX);
    expect(byPath.get('/v1/alpha/scholar/profiles')).toBe(`1 + \`enrich\` (default ${enrichDefault}, at most ${ENRICH_MAX})`);
  });

  it('web search alpha: the search, and a second for the AI overview only when asked', () => {
    expect(byPath.get('/v1/web-search/alpha')).toBe(`1 (${cost('web-search-alpha')} with \`fetch_ai_overview\`)`);
  });

  it('citation search: one search, and with the index’s cite calls one per paper, at most the cost table’s', () => {
    expect(cost('cite-search')).toBe(1 + maxResults);
    expect(byPath.get('/v1/cite/search')).toBe(`1 (with \`"index"\`: 1 + papers not cached, ≤ ${cost('cite-search')})`);
  });

  it('reference check: none, and with Google Scholar one per reference no registry confirmed, at most a list’s length', () => {
    expect(cost('cite-check')).toBe(CHECK_REFERENCES_MAX);
    expect(byPath.get('/v1/cite/check')).toBe(
      `0 (with \`"scholar": true\`: 1 per reference no registry confirmed, ≤ ${cost('cite-check')})`,
    );
  });
});

describe('the budget guide’s table "What a request costs"', () => {
  const rows = table('docs/budget-and-caching.md', 'Endpoint');
  /** How the guide names the routes of each row. */
  const named: Record<string, string[]> = {
    'web search (alpha, bravo, charlie, delta)': [
      'web-search-alpha',
      'web-search-bravo',
      'web-search-charlie',
      'web-search-delta',
    ],
    news: ['alpha-news'],
    images: ['alpha-images'],
    author: ['scholar-author'],
    profiles: ['scholar-profiles'],
    trends: ['alpha-trends'],
    'author-citation': ['scholar-author-citation'],
    'cite search': ['cite-search'],
    'cite resolve': ['cite-resolve'],
    'cite check': ['cite-check'],
    'cite styles': ['cite-styles'],
    '`/v1/usage`': ['usage'],
    'jobs (submit, status, results, cancel)': ['jobs-submit', 'jobs-status', 'jobs-results', 'jobs-cancel'],
    // A variant of a route, priced by a request field: checked on its own below.
    'web search alpha with `"fetch_ai_overview": true`': [],
  };
  /** Each route with the cost cell of the row that names it. */
  const costs = new Map(
    rows.flatMap(([names = '', paid = '']) =>
      names
        .split(/,\s*(?![^(]*\))/)
        .flatMap((name) => (named[name.trim()] ?? [`unknown name "${name.trim()}"`]).map((route) => [route, paid] as const)),
    ),
  );

  it('names every route once, and nothing else', () => {
    expect([...costs.keys()].sort()).toEqual(ROUTES.map((route) => route.name).sort());
    expect(rows.flatMap(([names = '']) => names.split(/,\s*(?![^(]*\))/)).length).toBe(Object.keys(named).length);
  });

  it('gives each route of fixed cost what the cost table gives', () => {
    for (const route of ROUTES.filter((r) => !VARIABLE_COST.includes(r.name))) {
      expect(costs.get(route.name), route.name).toBe(String(cost(route.name)));
    }
  });

  it('gives scholar profiles the search plus `enrich`, with its default and maximum', () => {
    expect(costs.get('scholar-profiles')).toBe(
      `1 + \`enrich\` (the profiles filled from their profile page: default ${enrichDefault}, at most ${ENRICH_MAX})`,
    );
  });

  it('gives web search alpha with fetch_ai_overview a second search, only when Google holds the overview back', () => {
    const row = rows.find(([names = '']) => names.includes('fetch_ai_overview'));
    expect(row?.[1]).toMatch(
      /^2 when Google holds its AI overview back for a second request, else 1; refused before the first unless the budget has room for 2/,
    );
  });

  it('gives citation search one search, and with the index’s cite calls one per paper up to `results`’ maximum', () => {
    expect(costs.get('cite-search')).toBe(
      `1; with \`"citation_source": "index"\`, 1 + one per paper whose cite answer is not cached (at most \`results\`, ${maxResults})`,
    );
  });

  it('gives the reference check no search, and with Google Scholar one per reference no registry confirmed', () => {
    expect(costs.get('cite-check')).toBe(
      `0; with \`"scholar": true\`, one per reference no registry confirmed and no cache holds (at most ${CHECK_REFERENCES_MAX}), all reserved before the first`,
    );
  });
});
