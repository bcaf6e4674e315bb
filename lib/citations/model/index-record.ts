/**
 * The record of a paper built from what the scholarly index says of it: the last record source, so that
 * a paper no free source knows is still cited. The index gives a title, the authors (initials and family
 * names, the list cut with "…" past a few), the venue and year in its summary line, the site, the link and
 * sometimes a "[BOOK]" mark. Nothing is invented: what the index does not say is left out of the record
 * and listed in `gaps`, so that a user knows what to check before citing it.
 */
import { AUTHORS_CUT, type CslItem, titleLanguage, withoutEmpty } from './csl.js';
import { parseScholarAuthor, type ScholarRecord, summaryParts } from './scholar.js';
import { normalizeText } from './text.js';

/** What the index said of one paper beyond its parsed summary. */
export interface IndexedFacts {
  /** The summary line: "JC Robinson, VG Saúco - 2010 - books.google.com". */
  summary: string | null;
  /** The page the index links the paper to. */
  link: string | null;
  /** The names of `publication_info.authors` (authors with a profile), in the index's order. */
  profileAuthors: string[];
  /** The result's `type` as SerpApi gives it: "Book" for the index's "[BOOK]" mark, "Citation", "PDF", … */
  kind: string | null;
}

export interface IndexRecord {
  csl: CslItem;
  /** The elements a citation of this type prints that the index did not give (README: `citation_gaps`). */
  gaps: string[];
}

/** Preprint servers, as the index names them in a venue or site. */
const PREPRINT_SERVER =
  /\b(arxiv|biorxiv|medrxiv|chemrxiv|psyarxiv|socarxiv|edarxiv|techrxiv|engrxiv|ssrn|research ?square|preprints\.org|authorea|osf preprints|zenodo)\b/i;
const THESIS = /\b(thesis|theses|dissertation|dissertations|doctoral|phd|ph\.d\.|master'?s|doktorarbeit|tesis|th[eè]se)\b/i;
const THESIS_HOST = /(?:^|\.)(?:theses|etd|ethos|dart-europe|tesisenred|oatd)\.|thesis|theses|dissertation/i;
/**
 * A conference's proceedings, as the index names them: "… conference …", "Proceedings of the 58th annual
 * meeting …", "Proc. of the 2019 …". Not the journals whose name begins with "Proceedings" (of the Royal
 * Society, of the National Academy of Sciences, of the IEEE).
 */
const CONFERENCE =
  /\b(?:conference|symposium|workshop|congress|colloquium|conf\.|annual meeting)\b|\bproc(?:eedings|\.)\s+of\s+(?:the\s+)?(?:\d|[a-z]+(?:st|nd|rd|th)\b|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b)/i;
const BOOK_HOST = /(?:^|\.)books\.google\.[a-z.]+$/i;

/**
 * The link a citation may print: a Google Books link cut to the book (`?id=…`), without the search terms,
 * page and signature the index's link carries.
 */
export function citableLink(link: string | null): string | undefined {
  if (!link) return undefined;
  try {
    const url = new URL(link);
    const id = url.searchParams.get('id');
    if (BOOK_HOST.test(url.hostname) && id) return `${url.origin}${url.pathname}?id=${encodeURIComponent(id)}`;
  } catch {
    return undefined;
  }
  return link;
}

function hostOf(link: string | null): string {
  if (!link) return '';
  try {
    return new URL(link).hostname;
  } catch {
    return '';
  }
}

/** "JC" → "J. C.": CSL reads a run of capitals as one given name ("Robinson, J." in APA, losing the C). */
function expandInitials(given: string): string {
  return /^\p{Lu}{1,4}$/u.test(given) ? [...given].map((letter) => `${letter}.`).join(' ') : given;
}

type Kind = 'thesis' | 'book' | 'preprint' | 'paper-conference' | 'article-journal' | 'document';

/**
 * What kind of work the index's facts describe, in this order: a thesis (named so in the venue or site, or
 * on a thesis repository), a book (the "[BOOK]" mark, a Google Books link, or the index's habit of giving a
 * book's own title as its venue), a preprint (a preprint server), a conference paper (proceedings,
 * conference, symposium, workshop in the venue), else a journal article when the index names a venue, and
 * without one a document of no known kind: nothing then says it is in a journal, and an article without
 * its journal is an error to biber and a bare `JOUR` to a reference manager.
 */
function kindOf(record: ScholarRecord, facts: IndexedFacts, site: string | null): Kind {
  const venue = record.venue ?? '';
  const host = hostOf(facts.link);
  if (THESIS.test(venue) || THESIS.test(site ?? '') || THESIS_HOST.test(host)) return 'thesis';
  if (facts.kind?.toLowerCase() === 'book' || BOOK_HOST.test(host)) return 'book';
  if (venue && normalizeText(venue) === normalizeText(record.title)) return 'book';
  if (PREPRINT_SERVER.test(venue) || PREPRINT_SERVER.test(site ?? '') || PREPRINT_SERVER.test(host)) return 'preprint';
  if (CONFERENCE.test(venue)) return 'paper-conference';
  return venue ? 'article-journal' : 'document';
}

/** A site name that is a publisher ("Springer", "CABI"), not a web address ("books.google.com"). */
function publisherOf(site: string | null): string | undefined {
  const name = site?.replace(/…/g, '').trim();
  return name && !/\.[a-z]{2,}$/i.test(name) ? name : undefined;
}

/** The preprint's server and identifier: "arXiv preprint arXiv:2101.00001" → arXiv, arXiv:2101.00001. */
function preprintServer(venue: string, site: string | null): { server?: string; number?: string } {
  const text = `${venue} ${site ?? ''}`;
  const server = PREPRINT_SERVER.exec(text)?.[1];
  const number = /\barXiv:\s*(\d{4}\.\d{4,5}(?:v\d+)?)/i.exec(venue)?.[1];
  const named = server?.toLowerCase() === 'arxiv' ? 'arXiv' : server;
  return { server: named, number: number ? `arXiv:${number}` : undefined };
}

/**
 * The paper's record from the index's facts. `record` is the summary as parsed for matching
 * (parseScholarSummary); `facts` the rest of what the index gave.
 */
export function indexRecordOf(id: string, record: ScholarRecord, facts: IndexedFacts): IndexRecord {
  const { site } = summaryParts(facts.summary);
  const gaps: string[] = [];
  const kind = kindOf(record, facts, site);

  // A title the index cut keeps its "…": printed as cut, never as a whole title (and listed in `gaps`). The
  // index ends some whole titles with a full stop of its own; a style adds its own.
  const titleCut = /(?:…|\.\.\.)\s*$/.test(record.title);
  const title = titleCut ? record.title.replace(/\s*\.\.\.\s*$/, ' …').trim() : record.title.replace(/\s*\.\s*$/, '').trim();
  if (titleCut) gaps.push('title truncated');

  let people = record.authors;
  // Without a summary author list, the authors the index links to a profile: some of the authors, not all.
  let cut = record.authorsCut === true;
  if (people.length === 0 && facts.profileAuthors.length > 0) {
    people = facts.profileAuthors.flatMap((name) => parseScholarAuthor(name, { person: true }) ?? []);
    cut = people.length > 0;
  }
  const author = people.map(({ given, family, organisation }) =>
    organisation ? { literal: family } : given ? { family, given: expandInitials(given) } : { family },
  );
  if (author.length === 0) gaps.push('authors');
  else if (cut) gaps.push('authors truncated');
  if (record.year === null) gaps.push('year');

  const venueText = record.venue ?? '';
  const venueCut = /…|\.\.\./.test(venueText);
  const venue =
    venueText && normalizeText(venueText) !== normalizeText(record.title) ? venueText.replace(/\.\.\./g, '…') : undefined;
  const item: Record<string, unknown> = {
    id,
    type: kind === 'preprint' ? 'article' : kind,
    title,
    author: author.length > 0 ? author : undefined,
    issued: record.year === null ? undefined : { 'date-parts': [[record.year]] },
    URL: citableLink(facts.link),
    language: titleLanguage(title),
  };
  switch (kind) {
    case 'article-journal':
      item['container-title'] = venue;
      if (!venue) gaps.push('venue');
      else if (venueCut) gaps.push('venue truncated');
      gaps.push('volume', 'issue', 'pages', 'doi');
      break;
    case 'paper-conference':
      item['container-title'] = venue;
      if (venueCut) gaps.push('venue truncated');
      gaps.push('pages', 'publisher', 'doi');
      break;
    case 'book':
      item.publisher = publisherOf(site);
      if (!item.publisher) gaps.push('publisher');
      break;
    case 'document':
      // The venue is what would tell its kind; with the kind unknown, a DOI is all a citation could add.
      gaps.push('venue', 'doi');
      break;
    case 'thesis':
      // The awarding university is what a thesis citation names; the index rarely gives it.
      gaps.push('institution', 'degree');
      break;
    case 'preprint': {
      const { server, number } = preprintServer(venueText, site);
      item.genre = 'Preprint';
      item.publisher = server;
      item.number = number;
      if (!server) gaps.push('repository');
      gaps.push('doi');
      break;
    }
  }
  const csl = withoutEmpty(item) as CslItem;
  // The citations print a cut list as the style prints a long one ("et al."): render/render.ts.
  if (author.length > 0 && cut) csl[AUTHORS_CUT] = true;
  return { csl, gaps };
}

/** The index's facts as a CSL item, for a caller that has only the parsed summary and the link. */
export function cslFromScholar(scholarId: string, record: ScholarRecord, url: string | null): CslItem {
  return indexRecordOf(scholarId, record, { summary: null, link: url, profileAuthors: [], kind: null }).csl;
}
