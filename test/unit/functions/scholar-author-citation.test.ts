import { describe, expect, it } from 'vitest';
import {
  citationMessage,
  requestSchema,
  reshapeAuthorCitation,
  toCitingParams,
  toSerpApiParams,
} from '../../../functions/scholar-author-citation.js';
import { responseSchema } from '../../../lib/contract/scholar-author-citation.js';
import { AppError } from '../../../lib/errors.js';
import { sample } from '../../../lib/local/samples.js';
import { citingListId } from '../../../lib/reshape/scholar.js';

const request = requestSchema.parse({ citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' });

describe('author citation request', () => {
  it('takes the author id from citation_id when none is given', () => {
    expect(toSerpApiParams(request)).toEqual({
      author_id: 'LSsXyncAAAAJ',
      view_op: 'view_citation',
      citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C',
      hl: undefined,
    });
    expect(toSerpApiParams(requestSchema.parse({ ...request, author_id: 'LSsXyncAAAAJ', language: 'fr' }))).toMatchObject({
      author_id: 'LSsXyncAAAAJ',
      hl: 'fr',
    });
  });

  it('asks for the citing documents by their cites id, in the same language', () => {
    expect(toCitingParams('1234567890', { ...request, language: 'en' })).toEqual({ cites: '1234567890', hl: 'en' });
  });

  it('rejects a citation id without its author part, and an author id that is not that part', () => {
    expect(requestSchema.safeParse({ citation_id: 'u5HHmVD_uO8C' }).success).toBe(false);
    const mismatch = requestSchema.safeParse({ citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'someoneElse' });
    expect(mismatch.success).toBe(false);
    expect(mismatch.error?.issues[0]?.path).toEqual(['author_id']);
  });
});

describe('reshapeAuthorCitation', () => {
  const citation = sample('google_scholar_author_citation');

  it('finds the id of the citing list in the total_citations link (constructed sample: no recorded answer holds these fields)', () => {
    expect(citingListId(citation)).toBe('1234567890');
    expect(citingListId({ citation: { title: 'Uncited' } })).toBeNull();
  });

  it('gives the paper with title, authors, publication date, total citations and the citing documents (constructed sample: no recorded answer holds these fields)', () => {
    const data = reshapeAuthorCitation(citation, { ok: true, value: sample('google_scholar') });
    expect(data.unavailable).toEqual([]);
    expect(data.citations).toEqual({
      title: 'Genome-wide analysis of estrogen receptor binding sites',
      link: 'https://www.nature.com/articles/ng1901',
      authors: 'Jason S Carroll, Clifford A Meyer, Jun Song, Wei Li, Timothy R Geistlinger, Jérôme Eeckhoute',
      publication_date: '2006/11',
      journal: 'Nature genetics',
      volume: '38',
      issue: '11',
      pages: '1289-1297',
      publisher: 'Nature Publishing Group',
      description: 'The estrogen receptor is the master transcriptional regulator of breast cancer phenotype.',
      resources: [{ title: 'from nih.gov', link: 'https://www.ncbi.nlm.nih.gov/pmc/articles/example', file_format: 'HTML' }],
      total_citations: {
        count: 1630,
        link: 'https://scholar.google.com/scholar?oi=bibs&hl=en&cites=1234567890&as_sdt=5',
        cites_id: '1234567890',
        per_year: [
          { year: 2021, citations: 61 },
          { year: 2022, citations: 55 },
          { year: 2023, citations: 48 },
          { year: 2024, citations: 40 },
        ],
      },
      articles: [
        {
          rank: 1,
          title: 'Bananas and plantains',
          link: expect.stringMatching(/^https:\/\/books\.google\.com\//),
          snippet: expect.any(String),
          publication_info: 'JC Robinson, VG Saúco - 2010 - books.google.com',
          result_id: 'dyZ4bDycdLQJ',
          cited_by: {
            count: 1179,
            link: expect.stringContaining('cites=13003189807457248887'),
            cites_id: '13003189807457248887',
          },
        },
        expect.objectContaining({ rank: 2 }),
      ],
    });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(citationMessage(data)).toBe('Citation details found, with 2 citing documents');
  });

  it('keeps the paper with empty articles, and says why, when the citing documents could not be fetched (constructed sample: no recorded answer holds these fields)', () => {
    const error = new AppError('UPSTREAM_TIMEOUT', { details: 'The search provider did not answer within the deadline' });
    const data = reshapeAuthorCitation(citation, { ok: false, error });
    expect(data.citations?.title).toBe('Genome-wide analysis of estrogen receptor binding sites');
    expect(data.citations?.articles).toEqual([]);
    expect(data.unavailable).toEqual([
      { part: 'citations.articles', code: 'UPSTREAM_TIMEOUT', details: 'The search provider did not answer within the deadline' },
    ]);
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(citationMessage(data)).toBe(
      'Citation details found; the documents citing it could not be fetched (The search provider did not answer within the deadline)',
    );
  });

  it('still returns the contract shape when the upstream omits optional fields (constructed sample: no recorded answer holds these fields)', () => {
    const data = reshapeAuthorCitation({ citation: { title: 'Sparse paper' } }, null);
    expect(data.citations).toEqual({
      title: 'Sparse paper',
      link: null,
      authors: '',
      publication_date: '',
      journal: null,
      volume: null,
      issue: null,
      pages: null,
      publisher: null,
      description: null,
      resources: [],
      total_citations: { count: null, link: null, cites_id: null, per_year: [] },
      articles: [],
    });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(citationMessage(data)).toBe('Citation details found; no citing documents listed');
  });

  it('answers citations null and "No results" when the upstream gave no citation', () => {
    const data = reshapeAuthorCitation({}, null);
    expect(data).toEqual({ citations: null, unavailable: [] });
    expect(() => responseSchema.parse(data)).not.toThrow();
    expect(citationMessage(data)).toBe('No results');
  });
});
