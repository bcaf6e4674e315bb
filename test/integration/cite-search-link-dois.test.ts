/**
 * DOIs from result links (docs/citations.md, "DOIs from links"; docs/decisions.md §26): a page whose links
 * carry its papers' DOIs (a publisher's `/doi/abs/10.…`, Springer's `/article/10.…`, a bioRxiv page, a
 * doi.org link) is looked up in one Crossref request for all of them, and only the papers left are searched
 * for; each work a link names is still taken only if the matcher accepts it for the paper, so a link to
 * another work, an erratum keeping the paper's title or a supplement never gives the paper its DOI. At
 * Crossref's public pace the lookups' time is read off the pace's own starts (and the sources' latency the
 * benchmark uses), never off the machine's clock: wall time is the benchmark's to measure.
 */
import { describe, expect, it } from 'vitest';
import type { CrossrefWork } from '../../lib/citations/model/work.js';
import { responseSchema } from '../../lib/contract/cite-search.js';
import { crossrefRecording } from '../../lib/local/replay-crossref.js';
import { useCrossrefService } from '../support/crossref-service.js';
import type { IndexPaper } from '../support/index-papers.js';

/** Crossref's public pace: 5 lookups a second, the rate of a deployment without a contact address. */
const PUBLIC_RATE = 5;
/** Crossref's latency the benchmark gives it (issue: "Crossref and DataCite 300 ms each"). */
const CROSSREF_LATENCY_MS = 300;

const { harness, crossref, dataCite, servePapers } = await useCrossrefService({
  CROSSREF_REQUESTS_PER_SECOND: String(PUBLIC_RATE),
});

const crossrefPace = async () => (await import('../../lib/citations/sources/crossref.js')).crossrefPace;

const works = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;
const workOf = (doi: string) => works.find((work) => work.DOI === doi) as CrossrefWork;

/** Where the index links a paper of each publisher of the recording: its page, which carries the DOI. */
function linkFor(doi: string): string {
  if (doi.startsWith('10.1007/')) return `https://link.springer.com/article/${doi}`;
  if (doi.startsWith('10.1101/')) return `https://www.biorxiv.org/content/${doi}v1.full`;
  if (doi.startsWith('10.1177/')) return `https://journals.sagepub.com/doi/full/${doi}`;
  if (doi.startsWith('10.1111/') || doi.startsWith('10.1002/')) return `https://onlinelibrary.wiley.com/doi/abs/${doi}`;
  return `https://doi.org/${doi}`;
}

/** A recorded work as the index lists it: its title and summary line as the index writes them, `link` given. */
function listed(work: CrossrefWork, link = linkFor(work.DOI)): IndexPaper {
  const authors = (work.author ?? [])
    .slice(0, 3)
    .map((a) => `${(a.given ?? '').replace(/[^A-Z]/g, '')} ${a.family}`.trim())
    .join(', ');
  const year = work.issued?.['date-parts']?.[0]?.[0];
  const venue = (work.type === 'posted-content' ? 'bioRxiv' : (work['container-title']?.[0] ?? '')).replace(/&amp;/g, '&');
  const title = (work.title?.[0] ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\u2010/g, '-')
    .trim();
  return { title, summary: `${authors} - ${venue}, ${year} - ${new URL(link).hostname}`, link };
}

const isDoiLookup = (query: URLSearchParams) => (query.get('filter') ?? '').startsWith('doi:');

describe('DOIs from result links, looked up in batches', () => {
  it('answers a 20-paper page whose links carry DOIs from at most 4 Crossref requests, within 1.5 s at the public pace', async () => {
    servePapers(
      'twenty linked',
      'linked',
      works.map((work) => listed(work)),
    );
    const reply = await harness.service.post('/v1/cite/search', { query: 'twenty linked', results: 20, export: ['bibtex'] });
    expect(reply.status, reply.text).toBe(200);
    const data = responseSchema.parse(reply.json.data);
    expect(data.papers).toHaveLength(20);

    // One request for every DOI the links carry, then a search for each paper left.
    expect(crossref.requests.length).toBeLessThanOrEqual(4);
    expect(crossref.requests.filter(isDoiLookup)).toHaveLength(1);
    expect((crossref.requests[0]?.get('filter') ?? '').split(',')).toHaveLength(20);
    // Every paper whose link names its own work has that work's DOI; only the dataset (the matcher gives a
    // dataset only to a paper shown on a data repository) was searched for, and found nothing.
    const dois = data.papers.map((paper) => paper.doi);
    expect(dois.filter((doi) => doi !== null)).toHaveLength(19);
    data.papers.forEach((paper, i) => {
      const work = works[i] as CrossrefWork;
      expect(paper.doi, paper.title).toBe(work.type === 'dataset' ? null : work.DOI.toLowerCase());
    });
    expect(crossref.requests.filter((query) => !isDoiLookup(query))).toHaveLength(1);

    // The time the lookups take at the public pace: the pace's own wait for the last start, and the two
    // rounds one after the other (the batch, then the search of what it left), each Crossref's latency.
    const starts = (await crossrefPace()).starts();
    expect(starts).toHaveLength(crossref.requests.length);
    const paceWait = (starts.at(-1) as number) - (starts[0] as number);
    expect(paceWait + 2 * CROSSREF_LATENCY_MS).toBeLessThanOrEqual(1_500);
  });

  it('never gives a paper the DOI of another work its link names: a search finds its own', async () => {
    const trap = workOf('10.1111/ele.14024');
    // "The forecast trap", linked to the page of another paper of the same authors and journal.
    servePapers('other link', 'other', [listed(trap, linkFor('10.1111/ele.13085'))]);
    const data = (await harness.service.post('/v1/cite/search', { query: 'other link', export: ['bibtex'] })).json.data;
    expect(crossref.requests.filter(isDoiLookup)).toHaveLength(1);
    expect(crossref.requests.filter((query) => !isDoiLookup(query))).toHaveLength(1);
    expect(data.papers[0].doi).toBe('10.1111/ele.14024');
  });

  it('never gives a paper the DOI of an erratum or a supplement its link names, even one that keeps the paper’s title', async () => {
    const paper = workOf('10.1111/ele.13085');
    const erratum: CrossrefWork = {
      ...paper,
      DOI: '10.1111/ele.13085.erratum',
      'update-to': [{ DOI: paper.DOI, type: 'erratum' }],
    };
    const supplement: CrossrefWork = { ...paper, DOI: '10.1111/ele.13085.supp', type: 'component' };
    crossref.respond((query) => {
      const filter = query.get('filter') ?? '';
      if (!filter.startsWith('doi:')) return undefined;
      const items = [erratum, supplement].filter((work) => filter.includes(work.DOI));
      return { status: 200, body: JSON.stringify({ status: 'ok', message: { items } }) };
    });
    servePapers('notices', 'notice', [listed(paper, linkFor(erratum.DOI)), listed(paper, linkFor(supplement.DOI))]);
    const data = (await harness.service.post('/v1/cite/search', { query: 'notices', export: ['bibtex'] })).json.data;
    // Both were asked for in one batch, refused, and both papers searched for and found under their own DOI.
    expect(crossref.requests.filter(isDoiLookup)).toHaveLength(1);
    expect(data.papers.map((p: { doi: string | null }) => p.doi)).toEqual([paper.DOI, paper.DOI]);
  });

  it('looks the arXiv papers of a page up in one DataCite request, by the identifiers their links carry', async () => {
    servePapers('two preprints', 'arxiv', [
      {
        title:
          'Determination of hyperfine splittings and Landé g_J factors of 5s 2S1/2 and 5p 2P1/2,3/2 states of 111,113Cd+ for a …',
        summary: 'JZ Han, R Si, HR Qin, NC Xin, YT Chen… - arXiv preprint, 2022 - arxiv.org',
        link: 'https://arxiv.org/pdf/2201.06719v2',
      },
      {
        title: 'A preprint no source has recorded',
        summary: 'A Nobody - arXiv preprint, 2021 - arxiv.org',
        link: 'https://arxiv.org/abs/2101.00001',
      },
    ]);
    const data = (await harness.service.post('/v1/cite/search', { query: 'two preprints', export: ['bibtex'] })).json.data;
    const batches = dataCite.requests.filter((request) => request.query.has('ids'));
    expect(batches.map((request) => request.query.get('ids'))).toEqual(['10.48550/arxiv.2201.06719,10.48550/arxiv.2101.00001']);
    // No DOI asked alone: the batch answered for both (the second has no record, and is searched for instead).
    expect(dataCite.requests.filter((request) => request.path.startsWith('/dois/'))).toEqual([]);
    expect(data.papers.map((p: { doi: string | null }) => p.doi)).toEqual(['10.48550/arxiv.2201.06719', null]);
  });
});
