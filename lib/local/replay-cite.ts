/**
 * The demo's citation search (`npm start`), beside the demo upstream (replay-upstream.ts):
 *
 * - A cite call (made only for "citation_source": "index") is answered with the recorded cite answer only
 *   for the paper it was recorded for (`google_scholar_cite.json`, q=FDc6HiktlqEJ, "Iron oxides"); any
 *   other paper gets an answer with no citations, so that no paper shows another paper's citation. The
 *   demo's recorded search page ("Bananas and plantains", "The evolution of the bananas.") is therefore
 *   cited from the index's own records of its papers: no cite answer was recorded for them, and Crossref's
 *   recordings do not hold them either.
 * - A scholarly search that names an author of the recorded Crossref answer (e.g. "boettiger") is
 *   answered with a page listing that answer's journal articles, as the index would summarise them
 *   (title; authors' initials and family names, venue, year). The page is built here from the Crossref
 *   recording, not recorded from the index; it lets the demo show what a page Crossref knows looks like:
 *   citations rendered locally, DOIs in `export`, one paid call.
 */
import type { CrossrefWork } from '../citations/model/work.js';
import { CROSSREF_RECORDING_NAMES, crossrefRecording } from './replay-crossref.js';
import { sample, sampleText } from './samples.js';

/** The paper the recorded cite answer belongs to. */
const RECORDED_CITE_ID = 'FDc6HiktlqEJ';

/** What a cite call for a paper with no recorded answer gets: SerpApi's shape, no citations. */
const NO_CITATIONS = JSON.stringify({
  search_metadata: { status: 'Success' },
  search_parameters: { engine: 'google_scholar_cite' },
  citations: [],
  links: [],
});

/** The works of the recorded Crossref answer. */
function recordedWorks(): CrossrefWork[] {
  return (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;
}

/** The recorded journal articles as a scholarly search page (see the module comment). */
function demoScholarPage(): string {
  const recorded = sample('google_scholar');
  const papers = recordedWorks()
    .filter((work) => work.type === 'journal-article' && work.author?.[0]?.family && work.title?.[0])
    .slice(0, 10)
    .map((work, i) => {
      const authors = (work.author ?? [])
        .slice(0, 3)
        .map((a) => `${(a.given ?? '').replace(/[^A-Z]/g, '')} ${a.family ?? a.name ?? ''}`.trim())
        .join(', ');
      const year = work.issued?.['date-parts']?.[0]?.[0];
      return {
        position: i,
        // The index shows titles as text: no markup, plain hyphens.
        title: (work.title?.[0] ?? '')
          .replace(/<[^>]*>/g, '')
          .replace(/\s+/g, ' ')
          .replace(/\u2010/g, '-')
          .trim(),
        result_id: `demo-crossref-${i + 1}`,
        link: work.URL,
        publication_info: {
          summary: `${authors} - ${work['container-title']?.[0] ?? ''}, ${year ?? ''} - ${work.publisher ?? ''}`,
        },
        inline_links: { cited_by: { total: 0 } },
      };
    });
  return JSON.stringify({
    search_metadata: recorded.search_metadata,
    search_information: { total_results: papers.length },
    organic_results: papers,
    // Crossref knows far more works of the query than these: the index would have a next page, the demo
    // only has none (an answer must not say "This is the last page" for that reason).
    serpapi_pagination: { next: `https://serpapi.com/search.json?engine=google_scholar&start=${papers.length}` },
  });
}

let authors: Set<string> | undefined;

function namesRecordedAuthor(q: string): boolean {
  authors ??= new Set(recordedWorks().flatMap((work) => (work.author ?? []).map((a) => (a.family ?? '').toLowerCase())));
  return q
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .some((word) => word.length > 2 && authors?.has(word));
}

/** The demo's answer to a citation-search upstream query, or undefined to answer from the samples as usual. */
export function citeReplay(query: URLSearchParams): string | undefined {
  const engine = query.get('engine');
  if (engine === 'google_scholar_cite') {
    return query.get('q') === RECORDED_CITE_ID ? sampleText('google_scholar_cite') : NO_CITATIONS;
  }
  if (engine === 'google_scholar' && namesRecordedAuthor(query.get('q') ?? '')) return demoScholarPage();
  return undefined;
}

/** What the demo's page built from the Crossref recording replays: the query Crossref was asked. */
export const CROSSREF_PAGE_RECORDING = CROSSREF_RECORDING_NAMES.boettiger;

/**
 * The query of the recording `citeReplay` answers with: a string, null when it answers with no recording
 * (a cite call for another paper: no citations), undefined when it leaves the query to the samples.
 */
export function citeRecording(query: URLSearchParams): string | null | undefined {
  const engine = query.get('engine');
  if (engine === 'google_scholar_cite') return query.get('q') === RECORDED_CITE_ID ? RECORDED_CITE_ID : null;
  if (engine === 'google_scholar' && namesRecordedAuthor(query.get('q') ?? '')) return CROSSREF_PAGE_RECORDING;
  return undefined;
}
