/**
 * Reference-manager exports for citation search: a CSL-JSON record per paper, from Crossref when a work
 * matched and else from what the scholarly index gave, rendered to BibTeX and RIS by citation-js (its
 * core and its BibTeX and RIS plugins). Its CSL plugin is left out on purpose: it renders bibliographies
 * in citation styles through citeproc, which the exports do not need and which would be 560 KiB of the
 * bundle. citation-js is imported only when a request asks for BibTeX or RIS, and then once per container.
 */
import type { CiteSearchData, ExportFormat, PaperExports } from '../contract/cite-search.js';
import { type CrossrefPerson, type CrossrefWork, normalizeText, type ScholarRecord } from '../crossref/match.js';

/** A CSL-JSON item (citation-style-language/schema, csl-data.json): what reference managers import. */
export type CslItem = Record<string, unknown> & { id: string; type: string; title?: string };

/** What the lookup found for one paper: the matched work's record, or why there is none. */
export type PaperRecord = { doi: string; csl: CslItem } | { doi: null; reason: string };

// Crossref's work types (api.crossref.org/types) in CSL's vocabulary; anything else is a generic document.
const CSL_TYPES: Record<string, string> = {
  'journal-article': 'article-journal',
  'proceedings-article': 'paper-conference',
  'book-chapter': 'chapter',
  'book-section': 'chapter',
  'book-part': 'chapter',
  book: 'book',
  monograph: 'book',
  'edited-book': 'book',
  'reference-book': 'book',
  'book-series': 'book',
  'posted-content': 'article',
  dataset: 'dataset',
  report: 'report',
  dissertation: 'thesis',
  'reference-entry': 'entry',
  standard: 'standard',
};

/**
 * Crossref titles may carry JATS markup (<scp>, <i>) and line breaks; reference managers want plain text.
 * Unicode hyphens (U+2010, U+2011; Wiley writes "life‐history") become ASCII ones: citation-js's BibTeX
 * output drops them, and "lifehistory" is not the title.
 */
function plain(text: string | undefined): string | undefined {
  const cleaned = text
    ?.replace(/<[^>]*>/g, '')
    .replace(/[\u2010\u2011]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned || undefined;
}

function cslPeople(people: CrossrefPerson[] | undefined): Record<string, string>[] | undefined {
  const names = (people ?? []).flatMap((person): Record<string, string>[] => {
    if (person.family) return [person.given ? { family: person.family, given: person.given } : { family: person.family }];
    return person.name ? [{ literal: person.name }] : [];
  });
  return names.length > 0 ? names : undefined;
}

function withoutEmpty(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

/** A Crossref work as a CSL-JSON item; Crossref's own format is nearly CSL already. */
export function cslFromCrossref(work: CrossrefWork): CslItem {
  const title = plain(work.title?.[0]);
  const subtitle = plain(work.subtitle?.[0]);
  const dateParts = work.issued?.['date-parts']?.[0]?.filter((part): part is number => typeof part === 'number');
  return withoutEmpty({
    id: work.DOI,
    type: CSL_TYPES[work.type ?? ''] ?? 'document',
    title: title && subtitle ? `${title}: ${subtitle}` : title,
    author: cslPeople(work.author),
    editor: cslPeople(work.editor),
    issued: dateParts?.length ? { 'date-parts': [dateParts] } : undefined,
    'container-title': plain(work['container-title']?.[0]),
    volume: work.volume,
    issue: work.issue,
    page: work.page,
    publisher: work.publisher,
    ISBN: work.ISBN?.[0],
    ISSN: work.ISSN?.[0],
    DOI: work.DOI,
    URL: work.URL,
  }) as CslItem;
}

/**
 * The paper as the index described it, as a CSL-JSON item: title, authors (initials as given names),
 * year, venue and link. The index does not say what kind of work it is: with a venue other than the
 * title it is taken for a journal article, else for a generic document.
 */
export function cslFromScholar(scholarId: string, record: ScholarRecord, url: string | null): CslItem {
  const venue = record.venue && normalizeText(record.venue) !== normalizeText(record.title) ? record.venue : null;
  return withoutEmpty({
    id: scholarId,
    type: venue ? 'article-journal' : 'document',
    // The index ends some titles with "…" (cut short) or a full stop of its own; a style adds its own.
    title: plain(record.title.replace(/\s*(…|\.\.\.|\.)\s*$/, '')),
    author: record.authors.length > 0 ? record.authors : undefined,
    issued: record.year === null ? undefined : { 'date-parts': [[record.year]] },
    'container-title': venue ?? undefined,
    URL: url ?? undefined,
  }) as CslItem;
}

type CiteConstructor = typeof import('@citation-js/core').Cite;

let citationJs: Promise<CiteConstructor> | undefined;

/** citation-js with its BibTeX and RIS plugins, loaded on first use and kept for the container's life. */
export function loadCitationJs(): Promise<CiteConstructor> {
  citationJs ??= (async () => {
    const { Cite } = await import('@citation-js/core');
    // The plugins register themselves with core when imported.
    await Promise.all([import('@citation-js/plugin-bibtex'), import('@citation-js/plugin-ris')]);
    return Cite;
  })();
  return citationJs;
}

type RisEntry = Record<string, string | number | (string | number)[]>;

/**
 * RIS text from citation-js's RIS records. Its own text output breaks every value after 70 characters,
 * mid-word, and readers (citation-js's own among them) join the pieces with a space: "surveyi ng". One
 * line per value, as the RIS format's tag lines are, keeps the title whole.
 */
function risText(entries: RisEntry[]): string {
  return entries
    .map((entry) => {
      const lines = [`TY  - ${entry.TY}`];
      for (const [tag, values] of Object.entries(entry)) {
        if (tag === 'TY') continue;
        for (const value of [values].flat()) lines.push(`${tag}  - ${String(value).replace(/\s*\n\s*/g, ' ')}`);
      }
      lines.push('ER  - ');
      return lines.join('\n');
    })
    .join('\n');
}

/** The requested exports of one CSL item. */
export async function renderExports(
  csl: CslItem,
  formats: readonly ExportFormat[],
): Promise<Pick<PaperExports, 'csl_json' | 'bibtex' | 'ris'>> {
  const out: Pick<PaperExports, 'csl_json' | 'bibtex' | 'ris'> = {};
  if (formats.includes('csl-json')) out.csl_json = csl;
  if (formats.includes('bibtex') || formats.includes('ris')) {
    const Cite = await loadCitationJs();
    const cite = new Cite(structuredClone(csl));
    if (formats.includes('bibtex')) out.bibtex = cite.format('bibtex').trim();
    if (formats.includes('ris')) out.ris = risText(cite.format('ris', { format: 'object' }) as unknown as RisEntry[]);
  }
  return out;
}

/**
 * Adds `doi` and `exports` to every paper of a cite-search answer. `lookups[i]` belongs to `papers[i]`:
 * the index's own data for it, the fallback when Crossref gave no record, and Crossref's record.
 */
export async function addExports(
  data: CiteSearchData,
  formats: readonly ExportFormat[],
  lookups: readonly { scholar: ScholarRecord; record: PaperRecord }[],
): Promise<CiteSearchData> {
  const papers = await Promise.all(
    data.papers.map(async (paper, i) => {
      const lookup = lookups[i];
      const record: PaperRecord = lookup?.record ?? { doi: null, reason: 'No Crossref lookup was made for this paper' };
      const scholar = lookup?.scholar ?? { title: paper.title, authors: [], year: null, venue: null };
      const csl = record.doi === null ? cslFromScholar(paper.scholar_id, scholar, paper.source_url) : record.csl;
      const exports: PaperExports = {
        source: record.doi === null ? 'scholar' : 'crossref',
        fallback_reason: record.doi === null ? record.reason : null,
        ...(await renderExports(csl, formats)),
      };
      return { ...paper, doi: record.doi, exports };
    }),
  );
  return { ...data, papers };
}
