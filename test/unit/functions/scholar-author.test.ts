import { describe, expect, it } from 'vitest';
import { requestSchema, reshapeAuthor, toSerpApiParams } from '../../../functions/scholar-author.js';
import { responseSchema } from '../../../lib/contract/scholar-author.js';
import { sample } from '../../../lib/local/samples.js';

const request = requestSchema.parse({ author_id: 'LSsXyncAAAAJ' });

describe('scholar author request', () => {
  it('defaults page to 0 and num to 20, and maps start = page × num', () => {
    expect(request).toEqual({ author_id: 'LSsXyncAAAAJ', page: 0, num: 20, no_cache: false });
    expect(toSerpApiParams({ ...request, language: 'de', sort: 'pubdate', page: 2, num: 50 })).toEqual({
      author_id: 'LSsXyncAAAAJ',
      hl: 'de',
      sort: 'pubdate',
      start: 100,
      num: 50,
    });
  });

  it('sends no sort for cited, the upstream default order, and title as title', () => {
    expect(toSerpApiParams({ ...request, sort: 'cited' }).sort).toBeUndefined();
    expect(toSerpApiParams({ ...request, sort: 'title' }).sort).toBe('title');
  });

  it('accepts 1 to 64 letters, digits, _ and - as an author id', () => {
    expect(requestSchema.safeParse({ author_id: 'a_B-9' }).success).toBe(true);
    expect(requestSchema.safeParse({ author_id: 'a'.repeat(64) }).success).toBe(true);
    expect(requestSchema.safeParse({ author_id: 'a'.repeat(65) }).success).toBe(false);
    expect(requestSchema.safeParse({ author_id: 'LSsX yncAAAAJ' }).success).toBe(false);
    expect(requestSchema.safeParse({ author_id: '../etc' }).success).toBe(false);
  });
});

describe('reshapeAuthor', () => {
  const data = reshapeAuthor(sample('google_scholar_author'), request);

  it('gives the author profile with interests as {title, link} (constructed sample: no recorded answer holds these fields)', () => {
    expect(data.author).toEqual({
      name: 'Cliff Meyer',
      affiliations: 'Dana-Farber Cancer Institute and Harvard T.H. Chan School of Public Health',
      email: 'Verified email at jimmy.harvard.edu',
      website: 'https://example.invalid/meyer',
      thumbnail: 'https://scholar.google.com/citations/images/avatar_scholar_128.png',
      interests: [
        {
          title: 'Computational Biology',
          link: 'https://scholar.google.com/citations?view_op=search_authors&hl=en&mauthors=label:computational_biology',
        },
        {
          title: 'Epigenomics',
          link: 'https://scholar.google.com/citations?view_op=search_authors&hl=en&mauthors=label:epigenomics',
        },
      ],
    });
  });

  it('gives the articles with integer years and citation counts (constructed sample: no recorded answer holds these fields)', () => {
    expect(data.articles).toHaveLength(3);
    expect(data.articles[0]).toEqual({
      title: 'Model-based analysis of ChIP-Seq (MACS)',
      link: expect.stringContaining('citation_for_view=LSsXyncAAAAJ:2osOgNQ5qMEC'),
      citation_id: 'LSsXyncAAAAJ:2osOgNQ5qMEC',
      authors: 'Y Zhang, T Liu, CA Meyer, J Eeckhoute, DS Johnson, BE Bernstein, ...',
      publication: 'Genome biology 9 (9), 1-9, 2008',
      year: 2008,
      cited_by: {
        count: 15712,
        link: 'https://scholar.google.com/scholar?oi=bibs&hl=en&cites=7996412425536165830',
        cites_id: '7996412425536165830',
      },
    });
  });

  it('gives citations, h-index and i10-index with the year "since" counts from, and the yearly graph (constructed sample: no recorded answer holds these fields)', () => {
    expect(data.cited_by).toEqual({
      citations: { all: 38511, since: 16134 },
      h_index: { all: 61, since: 44 },
      i10_index: { all: 111, since: 97 },
      since_year: 2019,
      graph: [
        { year: 2019, citations: 2750 },
        { year: 2020, citations: 2840 },
        { year: 2021, citations: 2905 },
        { year: 2022, citations: 2710 },
        { year: 2023, citations: 2580 },
        { year: 2024, citations: 2349 },
      ],
    });
  });

  it('gives co-authors, public access and paging (constructed sample: no recorded answer holds these fields)', () => {
    expect(data.co_authors).toEqual([
      {
        name: 'X. Shirley Liu',
        author_id: 'example1AAAAJ',
        affiliations: 'Dana-Farber Cancer Institute',
        email: 'Verified email at jimmy.harvard.edu',
        link: 'https://scholar.google.com/citations?user=example1&hl=en',
        thumbnail: 'https://scholar.google.com/citations/images/avatar_scholar_56.png',
      },
    ]);
    expect(data.public_access).toEqual({
      available: 117,
      not_available: 5,
      link: 'https://scholar.google.com/citations?view_op=list_mandates&hl=en&user=LSsXyncAAAAJ',
    });
    expect(data.pagination).toEqual({ current_page: 0, next_page: 1, has_more: true, page_size: 20 });
    expect(() => responseSchema.parse(data)).not.toThrow();
  });

  it('keeps at most num articles and never points next_page past page 99 (constructed sample: no recorded answer holds these fields)', () => {
    const trimmed = reshapeAuthor(sample('google_scholar_author'), { ...request, num: 2, page: 99 });
    expect(trimmed.articles.map((a) => a.citation_id)).toEqual(['LSsXyncAAAAJ:2osOgNQ5qMEC', 'LSsXyncAAAAJ:u5HHmVD_uO8C']);
    expect(trimmed.pagination).toEqual({ current_page: 99, next_page: null, has_more: true, page_size: 2 });
  });

  it('still returns the contract shape when the upstream omits optional fields (constructed sample: no recorded answer holds these fields)', () => {
    const json = sample('google_scholar_author');
    const sparse = {
      author: { name: 'Cliff Meyer' },
      articles: (json.articles as Record<string, unknown>[]).map((a) => ({ title: a.title })),
      cited_by: { table: [{ citations: { all: 10 } }] },
    };
    const data = reshapeAuthor(sparse, request);
    expect(data.author).toEqual({
      name: 'Cliff Meyer',
      affiliations: null,
      email: null,
      website: null,
      thumbnail: null,
      interests: [],
    });
    expect(data.articles[0]).toEqual({
      title: 'Model-based analysis of ChIP-Seq (MACS)',
      link: null,
      citation_id: null,
      authors: null,
      publication: null,
      year: null,
      cited_by: { count: null, link: null, cites_id: null },
    });
    expect(data.cited_by).toEqual({
      citations: { all: 10, since: null },
      h_index: { all: null, since: null },
      i10_index: { all: null, since: null },
      since_year: null,
      graph: [],
    });
    expect(data.co_authors).toEqual([]);
    expect(data.public_access).toBeNull();
    expect(data.pagination).toEqual({ current_page: 0, next_page: null, has_more: false, page_size: 20 });
    expect(() => responseSchema.parse(data)).not.toThrow();

    const empty = reshapeAuthor({}, request);
    expect(empty).toMatchObject({ author: null, articles: [], cited_by: null, co_authors: [], public_access: null });
    expect(() => responseSchema.parse(empty)).not.toThrow();
  });
});

describe('reshapeAuthor never passes on a link to a retired engine', () => {
  it("drops the recorded sample's serpapi_link to google_scholar_profiles and keeps Google Scholar's own link", () => {
    const json = sample('google_scholar_author');
    // The recorded answer does carry the retired engine's link: the test would prove nothing otherwise.
    expect(JSON.stringify(json)).toContain('engine=google_scholar_profiles');
    const data = reshapeAuthor(json, request);
    expect(JSON.stringify(data)).not.toContain('google_scholar_profiles');
    expect(JSON.stringify(data.author?.interests)).not.toContain('serpapi.com');
    expect(data.author?.interests.map((i) => i.link)).toEqual([
      expect.stringMatching(/^https:\/\/scholar\.google\.com\/citations\?view_op=search_authors/),
      expect.stringMatching(/^https:\/\/scholar\.google\.com\/citations\?view_op=search_authors/),
    ]);
  });

  it('drops an interest link that is itself the upstream API or the retired engine, keeping the title', () => {
    const retired = 'https://serpapi.com/search.json?engine=google_scholar_profiles&mauthors=label%3Aepigenomics';
    const elsewhere = 'https://mirror.example/search.json?engine=google_scholar_profiles&mauthors=x';
    const data = reshapeAuthor(
      {
        author: {
          name: 'A',
          interests: [
            { title: 'Epigenomics', link: retired },
            { title: 'X', link: elsewhere },
          ],
        },
      },
      request,
    );
    expect(data.author?.interests).toEqual([
      { title: 'Epigenomics', link: null },
      { title: 'X', link: null },
    ]);
  });
});

describe('reshapeAuthor reads the metrics table by position, in any language', () => {
  // The recorded sample's table with the labels SerpApi sends for hl=fr.
  const french = (): Record<string, unknown> => {
    const json = structuredClone(sample('google_scholar_author'));
    const table = (json.cited_by as { table: Record<string, Record<string, number>>[] }).table;
    const [citations, h, i10] = table.map((row) => Object.values(row)[0] as Record<string, number>);
    const localised = (row: Record<string, number> | undefined) => ({ all: row?.all, depuis_2019: row?.since_2019 });
    (json.cited_by as { table: unknown }).table = [
      { citations: localised(citations) },
      { indice_h: localised(h) },
      { indice_i10: localised(i10) },
    ];
    return json;
  };

  it('gives citations since, h-index, i10-index and since_year from a French-labelled table', () => {
    const data = reshapeAuthor(french(), requestSchema.parse({ author_id: 'LSsXyncAAAAJ', language: 'fr' }));
    expect(data.cited_by).toMatchObject({
      citations: { all: 38511, since: 16134 },
      h_index: { all: 61, since: 44 },
      i10_index: { all: 111, since: 97 },
      since_year: 2019,
    });
    expect(() => responseSchema.parse(data)).not.toThrow();
  });

  it('reads any label and any year-naming "since" key, and a junk row keeps the others in place', () => {
    const data = reshapeAuthor(
      { cited_by: { table: [{ zitate: { all: 5, seit_2016: 4 } }, null, { 'i10-index': { all: 2, seit_2016: 1 } }] } },
      request,
    );
    expect(data.cited_by).toMatchObject({
      citations: { all: 5, since: 4 },
      h_index: { all: null, since: null },
      i10_index: { all: 2, since: 1 },
      since_year: 2016,
    });
  });
});

describe('profileFromAuthorPage reads the citations row by position too', () => {
  it('fills cited_by from a French-labelled table', async () => {
    const { profileFromAuthorPage } = await import('../../../lib/reshape/scholar.js');
    const profile = profileFromAuthorPage(
      { name: 'C Meyer', author_id: 'LSsXyncAAAAJ', link: null, results: 1, match: 1, first: 0 },
      { author: { name: 'Cliff Meyer' }, cited_by: { table: [{ citées: { all: 38511, depuis_2019: 16134 } }] } },
    );
    expect(profile.cited_by).toBe(38511);
  });
});
