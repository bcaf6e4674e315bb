import { describe, expect, it } from 'vitest';
import {
  checkProfilesAnswer,
  profilesDiscontinued,
  requestSchema,
  reshapeProfiles,
  toSerpApiParams,
} from '../../../functions/scholar-profiles.js';
import { responseSchema } from '../../../lib/contract/scholar-profiles.js';
import { AppError } from '../../../lib/errors.js';
import { sample } from '../../../lib/local/samples.js';

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('scholar profiles request', () => {
  it('sends query as mauthors', () => {
    expect(toSerpApiParams(requestSchema.parse({ query: ' Mike ' }))).toEqual({ mauthors: 'Mike' });
    expect(toSerpApiParams(requestSchema.parse({ query: 'label:chemistry' }))).toEqual({ mauthors: 'label:chemistry' });
  });

  it('has no country: the engine takes no gl, so a country would do nothing', () => {
    expect(requestSchema.safeParse({ query: 'Mike', country: 'us' }).success).toBe(false);
  });
});

describe('reshapeProfiles', () => {
  it('gives every profile both title and name, both affiliations and affiliation, an integer cited_by and interest objects', () => {
    const data = reshapeProfiles(sample('google_scholar_profiles'));
    expect(data.profiles).toEqual([
      {
        title: 'Mike Robb',
        name: 'Mike Robb',
        author_id: 'kq0NYnMAAAAJ',
        affiliations: 'Chemistry Department Imperial College',
        affiliation: 'Chemistry Department Imperial College',
        email: 'Verified email at imperial.ac.uk',
        cited_by: 154267,
        interests: [
          {
            title: 'Computational chemistry',
            link: 'https://scholar.google.com/citations?hl=en&view_op=search_authors&mauthors=label:computational_chemistry',
          },
          {
            title: 'Theoretical Chemistry',
            link: 'https://scholar.google.com/citations?hl=en&view_op=search_authors&mauthors=label:theoretical_chemistry',
          },
        ],
        link: 'https://scholar.google.com/citations?hl=en&user=kq0NYnMAAAAJ',
        thumbnail: 'https://scholar.google.com/citations/images/avatar_scholar_56.png',
      },
    ]);
    expect(() => responseSchema.parse(data)).not.toThrow();
  });

  it('turns interests given as plain strings into {title, link: null} and reads cited_by from text', () => {
    const data = reshapeProfiles({
      profiles: [{ name: 'Ada', affiliation: 'Analytical Engines', cited_by: 'Cited by 1,234', interests: ['Computing', ''] }],
    });
    expect(data.profiles[0]).toMatchObject({
      title: 'Ada',
      affiliations: 'Analytical Engines',
      affiliation: 'Analytical Engines',
      cited_by: 1234,
      interests: [{ title: 'Computing', link: null }],
    });
  });

  it('still returns the contract shape when a profile carries only its name', () => {
    const json = sample('google_scholar_profiles');
    json.profiles = (json.profiles as Record<string, unknown>[]).map((p) => ({ name: p.name }));
    const data = reshapeProfiles(json);
    expect(data.profiles[0]).toEqual({
      title: 'Mike Robb',
      name: 'Mike Robb',
      author_id: '',
      affiliations: '',
      affiliation: '',
      email: null,
      cited_by: 0,
      interests: [],
      link: null,
      thumbnail: null,
    });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(reshapeProfiles({})).toEqual({ profiles: [] });
  });
});

describe('the discontinued profiles engine', () => {
  it('rewords an upstream error so that it names the discontinued engine and keeps what the provider said', () => {
    const upstream = new AppError('UPSTREAM_ERROR', {
      details: 'The search provider reported an error: This API has been discontinued.',
    });
    const error = thrown(() => profilesDiscontinued(upstream));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.details).toMatch(/^Google Scholar profile search is discontinued by the search provider/);
    expect(error.details).toContain('requires a login');
    expect(error.details).toContain('This API has been discontinued.');
  });

  it('passes timeouts and other codes through unchanged', () => {
    const timeout = new AppError('UPSTREAM_TIMEOUT');
    expect(thrown(() => profilesDiscontinued(timeout))).toBe(timeout);
  });

  it('treats an answer with neither profiles nor a "no results" text as the engine failing, never as an empty success', () => {
    const error = thrown(() => checkProfilesAnswer({ search_metadata: { status: 'Success' } }));
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.details).toContain('discontinued');
    expect(error.details).toContain('without a list of profiles');
  });

  it('lets a "no results" answer and a profiles list through', () => {
    const noResults = { error: "Google hasn't returned any results for this query." };
    expect(checkProfilesAnswer(noResults)).toBe(noResults);
    expect(reshapeProfiles(checkProfilesAnswer(noResults))).toEqual({ profiles: [] });
    expect(checkProfilesAnswer({ profiles: [] })).toEqual({ profiles: [] });
  });
});
