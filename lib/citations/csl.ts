/**
 * CSL-JSON records of papers: what every citation is rendered from and every export is written from. A
 * Crossref work is nearly CSL already (cslFromCrossref); the index's own description of a paper is the
 * fallback (index-record.ts).
 */
import { type CrossrefPerson, type CrossrefWork, normalizeText, type ScholarRecord } from './match.js';

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
  // An entry in a reference work (encyclopedia, dictionary): CSL's plain `entry` has no container in
  // BibTeX or RIS, and the work it is in is how it is found.
  'reference-entry': 'entry-encyclopedia',
  standard: 'standard',
};

// Markup inside a word: chemical formulas (H<sub>2</sub>O), exponents, and MathML's token elements.
const IN_WORD_TAGS = /^(?:sub|sup|mml:mi|mml:mn|mml:mo|mml:msub|mml:msup|mml:mrow|mml:mtext|mi|mn|mo|msub|msup|mrow|mtext)$/i;

/**
 * Crossref titles may carry JATS markup (<i>, <scp>, <sub>, MathML) and line breaks; reference managers
 * want plain text. Publishers often leave no space at a tag ("of<i>Salmonella enterica</i>from"): a tag
 * between two letters stands for a word boundary, except inside a word: MathML tokens, sub- and
 * superscripts unless a lower-case word follows, and a small-capital initial that starts a word
 * ("<scp>T</scp>reebase").
 */
export function plainText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const cleaned = text
    .replace(/<(\/?)([\w:.-]+)[^>]*>/g, (tag, closing: string, name: string, offset: number, whole: string) => {
      const before = whole.slice(0, offset);
      const after = whole.slice(offset + tag.length);
      if (!/\p{L}$/u.test(before.replace(/<[^>]*>/g, '')) || !/^(?:<[^>]*>)*\p{L}/u.test(after)) return '';
      // A subscript ends a word when a lower-case word follows ("NO<sub>x</sub>and"), not in "H<sub>2</sub>O".
      if (/^(?:sub|sup)$/i.test(name)) return closing && /^(?:<[^>]*>)*\p{Ll}/u.test(after) ? ' ' : '';
      if (IN_WORD_TAGS.test(name)) return '';
      // A small-capital initial: "<scp>T</scp>reebase" at a word's start, one capital inside the element.
      if (closing && /^scp$/i.test(name) && /(?:^|[^\p{L}])<scp[^>]*>\p{Lu}$/u.test(before)) return '';
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned || undefined;
}

const plain = plainText;

/**
 * Crossref's `subtitle` is not always a subtitle: Wiley deposits the running title there (a short form
 * of the title), others a translation of the title or the title of a reviewed book. It is added to the
 * title only when it is neither already in it nor mostly made of the title's words, and is written in
 * the same script.
 */
export function withSubtitle(title: string | undefined, subtitle: string | undefined): string | undefined {
  if (!title || !subtitle) return title;
  const titleWords = new Set(normalizeText(title).split(' '));
  const subtitleWords = normalizeText(subtitle).split(' ').filter(Boolean);
  if (subtitleWords.length === 0 || normalizeText(title).includes(normalizeText(subtitle))) return title;
  const shared = subtitleWords.filter((word) => titleWords.has(word)).length;
  if (shared / subtitleWords.length >= 0.6) return title;
  if (scriptOf(title) !== scriptOf(subtitle)) return title;
  return `${title}: ${subtitle}`;
}

/** The script most of a text's letters are in, as far as telling a translation apart needs. */
function scriptOf(text: string): string {
  const scripts = [
    'Latin',
    'Cyrillic',
    'Greek',
    'Arabic',
    'Hebrew',
    'Han',
    'Hiragana',
    'Katakana',
    'Hangul',
    'Devanagari',
    'Thai',
  ];
  let best = 'other';
  let most = 0;
  for (const script of scripts) {
    const count = text.match(new RegExp(`\\p{Script=${script}}`, 'gu'))?.length ?? 0;
    if (count > most) {
      best = script === 'Hiragana' || script === 'Katakana' ? 'Han' : script;
      most = count;
    }
  }
  return best;
}

function cslPeople(people: CrossrefPerson[] | undefined): Record<string, string>[] | undefined {
  const names = (people ?? []).flatMap((person): Record<string, string>[] => {
    if (person.family) return [person.given ? { family: person.family, given: person.given } : { family: person.family }];
    return person.name ? [{ literal: person.name }] : [];
  });
  return names.length > 0 ? names : undefined;
}

export function withoutEmpty(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

/** A Crossref work as a CSL-JSON item; Crossref's own format is nearly CSL already. */
export function cslFromCrossref(work: CrossrefWork): CslItem {
  const title = plain(work.title?.[0]);
  const subtitle = plain(work.subtitle?.[0]);
  const containers = (work['container-title'] ?? []).map(plain).filter((name): name is string => name !== undefined);
  const dateParts = work.issued?.['date-parts']?.[0]?.filter((part): part is number => typeof part === 'number');
  return withoutEmpty({
    id: work.DOI,
    type: CSL_TYPES[work.type ?? ''] ?? 'document',
    title: withSubtitle(title, subtitle),
    author: cslPeople(work.author),
    editor: cslPeople(work.editor),
    issued: dateParts?.length ? { 'date-parts': [dateParts] } : undefined,
    'container-title': containers[0],
    // A chapter's second container is the series its book is in ("Lecture Notes in Computer Science").
    'collection-title': work.type?.startsWith('book') && containers[1] !== containers[0] ? containers[1] : undefined,
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
