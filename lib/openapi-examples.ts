/**
 * One example request body per endpoint, for the OpenAPI document: the docs page's "Try it out" sends it,
 * so it must be a request a person would make (the README's examples), never generated noise, since
 * against a deployment each one is a paid search. A test holds every route to having one that the
 * route's own request schema accepts.
 */
export interface RequestExample {
  summary: string;
  value: Record<string, unknown>;
}

/** By route name (lib/routes.ts). */
export const REQUEST_EXAMPLES: Readonly<Record<string, RequestExample>> = {
  'web-search-alpha': {
    summary: 'Ten results for coffee, as searched from Austin',
    value: { q: 'coffee', location: 'Austin, Texas', language: 'en', page: 0, num: 10 },
  },
  'web-search-bravo': {
    summary: "This week's results for coffee, US region",
    value: { q: 'coffee', region: 'us-en', date: 'week', safe_search: 'moderate' },
  },
  'web-search-charlie': {
    summary: 'The second page of results for coffee, US market',
    value: { q: 'coffee', market: 'en-US', safe_search: 'strict', page: 1 },
  },
  'web-search-delta': {
    summary: 'Results for 咖啡 (coffee) in simplified Chinese, from 2024 on',
    value: { q: '咖啡', ct: 'simplified', date_from: '2024-01-01' },
  },
  'cite-search': {
    summary: 'Ten papers on bananas, with APA citations',
    value: { query: 'bananas', results: 10, page: 0, format: 'APA' },
  },
  'cite-resolve': {
    summary: 'Two DOIs and a free-text reference, cited in the five formats and in Nature and IEEE styles',
    value: {
      references: [
        '10.1038/nphys1170',
        'https://doi.org/10.1103/PhysRevB.47.9967',
        'Boettiger C. (2015). An introduction to Docker for reproducible research. ACM SIGOPS Operating Systems Review 49(1), 71-79.',
      ],
      styles: ['nature', 'ieee'],
    },
  },
  'cite-check': {
    summary: 'A reference as published, and one with a year to come and an invented co-author',
    value: {
      references: [
        'Boettiger, C. (2018). From noise to knowledge: how randomness generates novel phenomena and reveals information. Ecology Letters, 21(8), 1255-1267.',
        'Boettiger, C., Nobody, A., & Hastings, A. (2031). Early warning signals: the charted and uncharted territories. Theoretical Ecology, 6(3), 255-264.',
      ],
    },
  },
  'cite-styles': { summary: 'Styles named after Nature', value: { query: 'nature', results: 5 } },
  'scholar-profiles': { summary: 'Profiles of scholars named Mike Robb', value: { query: 'Mike Robb' } },
  'scholar-author': {
    summary: "One scholar's newest articles",
    value: { author_id: 'LSsXyncAAAAJ', sort: 'pubdate', page: 0, num: 20 },
  },
  'scholar-author-citation': {
    summary: 'One article and the documents citing it',
    value: { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', language: 'en' },
  },
  'alpha-trends': {
    summary: 'Interest in coffee and tea in California over the last 12 months',
    value: { queries: ['coffee', 'tea'], geo: 'US-CA', timeframe: 'today 12-m', category: 0 },
  },
  'alpha-news': {
    summary: 'News about coffee, as searched from Austin',
    value: { q: 'coffee', location: 'Austin, Texas', language: 'en', page: 0 },
  },
  usage: { summary: 'Nothing to send: the budget as this key sees it (free: no search)', value: {} },
  'jobs-submit': {
    summary: 'Three references resolved in the background, cited in Nature style too',
    value: {
      kind: 'resolve',
      references: [
        '10.1038/nphys1170',
        'https://doi.org/10.1103/PhysRevB.47.9967',
        'Boettiger C. (2015). An introduction to Docker for reproducible research. ACM SIGOPS Operating Systems Review 49(1), 71-79.',
      ],
      options: { styles: ['nature'] },
    },
  },
  'jobs-status': {
    summary: 'Where a job stands (put the job_id POST /v1/jobs gave)',
    value: { job_id: 'job_4w2kq7mb3c5d6e7f2g3h4i5j6k' },
  },
  'jobs-results': {
    summary: "The first 100 results of a job (put its job_id; then each page's next_cursor)",
    value: { job_id: 'job_4w2kq7mb3c5d6e7f2g3h4i5j6k', limit: 100 },
  },
  'jobs-cancel': { summary: 'Stop a job (put its job_id)', value: { job_id: 'job_4w2kq7mb3c5d6e7f2g3h4i5j6k' } },
  'alpha-images': {
    summary: 'Large, wide, blue photos of coffee under a Creative Commons licence',
    value: { q: 'coffee', size: 'large', color: 'blue', type: 'photo', license: 'creative_commons', aspect_ratio: 'wide' },
  },
};
