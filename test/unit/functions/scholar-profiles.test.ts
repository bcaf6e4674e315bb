import { describe, expect, it } from 'vitest';
import { askForLess, pageOfAuthors, requestSchema, researchTag, toSerpApiParams } from '../../../functions/scholar-profiles.js';
import { responseSchema } from '../../../lib/contract/scholar-profiles.js';
import { AppError } from '../../../lib/errors.js';
import { sample } from '../../../lib/local/samples.js';
import {
  discoverAuthors,
  nameMatch,
  profileFromAuthorPage,
  profileFromDiscovery,
  unfilled,
} from '../../../lib/reshape/scholar.js';
import { SERPAPI_ENGINES } from '../../../lib/upstream/engines.js';
import { asRetiredEngine } from '../../../lib/upstream/outcomes.js';

// A real recorded google_scholar page (q=minecraft) whose results link 15 distinct authors.
const RECORDED = sample('google_scholar_authors');

describe('scholar profiles request', () => {
  it('searches a name with the author: operator, quoted, 20 results (the most one paid call reads)', () => {
    expect(toSerpApiParams(requestSchema.parse({ query: ' Geoffrey Hinton ' }))).toEqual({
      q: 'author:"Geoffrey Hinton"',
      num: 20,
    });
    // A quote in the name would end the operator's phrase early.
    expect(toSerpApiParams(requestSchema.parse({ query: 'O"Neil' }))).toEqual({ q: 'author:"ONeil"', num: 20 });
  });

  it('searches a research tag as its words: label: works only in the retired profile search', () => {
    expect(researchTag('label:machine_learning')).toBe('machine learning');
    expect(researchTag('Mike')).toBeNull();
    expect(toSerpApiParams(requestSchema.parse({ query: 'label:machine_learning' }))).toEqual({ q: 'machine learning', num: 20 });
  });

  it('accepts country (the spec names it) as a two-letter code, and refuses anything else', () => {
    expect(requestSchema.parse({ query: 'Mike', country: 'us' }).country).toBe('us');
    expect(requestSchema.safeParse({ query: 'Mike', country: 'usa' }).success).toBe(false);
    // It has no effect upstream: the parameters are the same with or without it.
    expect(toSerpApiParams(requestSchema.parse({ query: 'Mike', country: 'gb' }))).toEqual(
      toSerpApiParams(requestSchema.parse({ query: 'Mike' })),
    );
  });

  it('defaults to 10 profiles a page, 5 of them enriched, and bounds enrich to 0–10', () => {
    expect(requestSchema.parse({ query: 'Mike' })).toMatchObject({ num: 10, page: 0, enrich: 5 });
    expect(requestSchema.safeParse({ query: 'Mike', enrich: 0 }).success).toBe(true);
    expect(requestSchema.safeParse({ query: 'Mike', enrich: 11 }).success).toBe(false);
    expect(requestSchema.safeParse({ query: 'Mike', num: 21 }).success).toBe(false);
  });

  it('no longer names the retired engine anywhere in the engine table', () => {
    expect(Object.values(SERPAPI_ENGINES)).not.toContain('google_scholar_profiles');
  });
});

describe('discoverAuthors on a recorded google_scholar page', () => {
  it('collects every distinct linked author once, with its id, name and link, in result order for a tag', () => {
    const authors = discoverAuthors(RECORDED, null);
    expect(authors).toHaveLength(15);
    expect(new Set(authors.map((a) => a.author_id)).size).toBe(15);
    expect(authors.slice(0, 3).map((a) => [a.name, a.author_id])).toEqual([
      ['S Nebel', '_WTrwUwAAAAJ'],
      ['S Schneider', '6Lh4FBMAAAAJ'],
      ['GD Rey', 'jCilMQoAAAAJ'],
    ]);
    expect(authors[0]?.link).toBe('https://scholar.google.com/citations?user=_WTrwUwAAAAJ&hl=en&oi=sra');
  });

  it('ranks the author whose name matches the query first, whatever its position', () => {
    const authors = discoverAuthors(RECORDED, 'Honglak Lee');
    expect(authors[0]).toMatchObject({ name: 'H Lee', author_id: 'fmSHtE8AAAAJ', match: 3 });
  });

  it('ranks an author linked by more results above one linked once', () => {
    const json = sample('google_scholar_authors');
    const results = json.organic_results as { publication_info: { authors: unknown[] } }[];
    // The recording's last linked author, linked a second time by another result.
    const lastAuthor = results.at(8)?.publication_info.authors[2];
    results.at(0)?.publication_info.authors.push(lastAuthor);
    expect(discoverAuthors(json, null)[0]).toMatchObject({ name: 'H Lee', results: 2 });
  });

  it('scores surnames above initials', () => {
    expect(nameMatch('GD Rey', ['gunter', 'rey'])).toBe(3);
    expect(nameMatch('GD Rey', ['rey'])).toBe(2);
    expect(nameMatch('GD Rey', ['smith'])).toBe(0);
  });

  it('pages over the ranked authors', () => {
    const authors = discoverAuthors(RECORDED, null);
    const second = pageOfAuthors(authors, requestSchema.parse({ query: 'x', num: 4, page: 1 }));
    expect(second.map((a) => a.author_id)).toEqual(authors.slice(4, 8).map((a) => a.author_id));
    expect(pageOfAuthors(authors, requestSchema.parse({ query: 'x', num: 10, page: 2 }))).toEqual([]);
  });
});

describe('profiles', () => {
  const [first] = discoverAuthors(RECORDED, null);
  if (!first) throw new Error('the recording links authors');

  it('fills a profile from its author page: full name, affiliation, integer citations, interest objects', () => {
    const profile = profileFromAuthorPage(first, sample('google_scholar_author'));
    expect(profile).toMatchObject({
      title: 'Cliff Meyer',
      name: 'Cliff Meyer',
      author_id: '_WTrwUwAAAAJ',
      affiliations: 'Dana-Farber Cancer Institute and Harvard T.H. Chan School of Public Health',
      affiliation: 'Dana-Farber Cancer Institute and Harvard T.H. Chan School of Public Health',
      cited_by: 38511,
      link: 'https://scholar.google.com/citations?user=_WTrwUwAAAAJ',
    });
    expect(profile.interests[0]).toEqual({ title: 'Computational Biology', link: expect.stringMatching(/^https:/) });
    expect(() => responseSchema.parse({ profiles: [profile] })).not.toThrow();
  });

  it('leaves an unenriched profile with the documented empty values', () => {
    const profile = profileFromDiscovery(first);
    expect(profile).toEqual({
      title: 'S Nebel',
      name: 'S Nebel',
      author_id: '_WTrwUwAAAAJ',
      affiliations: '',
      affiliation: '',
      email: null,
      cited_by: 0,
      interests: [],
      link: 'https://scholar.google.com/citations?user=_WTrwUwAAAAJ&hl=en&oi=sra',
      thumbnail: null,
    });
    expect(() => responseSchema.parse({ profiles: [profile] })).not.toThrow();
  });
});

describe('asRetiredEngine', () => {
  it("turns the provider's deprecation message into UPSTREAM_ENGINE_RETIRED, quoting it", () => {
    const said = new AppError('UPSTREAM_ERROR', {
      details: 'The search provider reported an error: Google Scholar Profiles API is discontinued.',
    });
    const error = asRetiredEngine(said);
    expect(error.code).toBe('UPSTREAM_ENGINE_RETIRED');
    expect(error.status).toBe(502);
    expect(error.details).toContain('Google Scholar Profiles API is discontinued.');
  });

  it('leaves other upstream errors and other codes alone', () => {
    const other = new AppError('UPSTREAM_ERROR', { details: 'The search provider answered HTTP 500' });
    expect(asRetiredEngine(other)).toBe(other);
    const timeout = new AppError('UPSTREAM_TIMEOUT', { details: 'no longer available' });
    expect(asRetiredEngine(timeout)).toBe(timeout);
  });
});

describe('a profile whose page was not read, and asking for fewer pages', () => {
  it('says why beside it: not requested, the budget, or the upstream, with the error code', () => {
    expect(unfilled(undefined, 3)).toMatchObject({ reason: 'not_requested', details: expect.stringContaining('"enrich": 3') });
    expect(unfilled(undefined, 3)).not.toHaveProperty('code');
    const budget = unfilled(new AppError('BUDGET_EXHAUSTED', { details: 'used up' }), 3);
    expect(budget).toMatchObject({
      reason: 'budget',
      code: 'BUDGET_EXHAUSTED',
      details: 'Its profile page could not be read: used up',
    });
    expect(unfilled(new AppError('BUDGET_UNAVAILABLE'), 3).reason).toBe('budget');
    expect(unfilled(new AppError('UPSTREAM_TIMEOUT'), 3)).toMatchObject({ reason: 'upstream_error', code: 'UPSTREAM_TIMEOUT' });
    expect(responseSchema.safeParse({ profiles: [] }).success).toBe(true);
  });

  it('asks for as many pages as the searches left allow, the search included', () => {
    expect(askForLess(4)).toMatch(/^"enrich": 3 makes 4 \(the search and 3 profile pages/);
    expect(askForLess(1)).toMatch(/^"enrich": 0 makes 1/);
    expect(askForLess(undefined)).toMatch(/^"enrich": 0 makes 1/);
  });
});
