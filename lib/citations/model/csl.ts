/**
 * CSL-JSON records of papers: what every citation is rendered from and every export is written from. A
 * Crossref work is nearly CSL already (cslFromCrossref); the index's own description of a paper is the
 * fallback (index-record.ts).
 */

import { normalizeText } from './text.js';
import type { CrossrefPerson, CrossrefWork, RecordAgency } from './work.js';

/**
 * Marks a record whose author list the index cut short ("DS Kermany, M Goldbaum…"): its citations print the
 * list as the style prints a long one, "et al." after the authors shown, never as if complete
 * (render/render.ts), and its BibTeX ends the list with "and others". A symbol: no CSL-JSON field, so the
 * record a reference manager imports stays valid, and JSON drops it.
 */
export const AUTHORS_CUT: unique symbol = Symbol('authors cut');

/** A CSL-JSON item (citation-style-language/schema, csl-data.json): what reference managers import. */
export type CslItem = Record<string, unknown> & { id: string; type: string; title?: string; [AUTHORS_CUT]?: boolean };

/** What the lookup found for one paper: the matched work's record and the agency it comes from, or why there is none. */
export type PaperRecord = { doi: string; csl: CslItem; source: RecordAgency } | { doi: null; reason: string };

// Crossref's work types (api.crossref.org/types) in CSL's vocabulary; anything else is a generic document.
// Book types are placed by `bookPlacement`: a book's container is its series, unless it is an entry.
export const CSL_TYPES: Record<string, string> = {
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
  // CSL's `article` is "a preprint, working paper or other article not published in a periodical"; with the
  // genre below, every style that labels preprints does ("[Preprint]" in APA).
  'posted-content': 'article',
  dataset: 'dataset',
  software: 'software',
  proceedings: 'book',
  report: 'report',
  dissertation: 'thesis',
  // An entry in a reference work (encyclopedia, dictionary): CSL's plain `entry` has no container in
  // BibTeX or RIS, and the work it is in is how it is found.
  'reference-entry': 'entry-encyclopedia',
  standard: 'standard',
};

const BOOK_TYPES = new Set(['book', 'monograph', 'edited-book', 'reference-book', 'book-series', 'proceedings']);

/** Reference works whose entries Crossref deposits as books: their titles say so, in several languages. */
const REFERENCE_WORK = /\b(?:encyclop|enzyklop|encicloped|dictionar|dictionnaire|diccionario|lexi[ck]on|w[öo]rterbuch)/i;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
};

/**
 * Crossref passes on what publishers deposit, HTML entities included ("R&amp;D", "&#8211;"): they are
 * characters, and every citation, CSL-JSON record and export must show the character. Unknown names are
 * left as they are. Run after markup is read, so that an escaped "&lt;i&gt;" stays text.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));/gi, (whole, dec?: string, hex?: string, name?: string) => {
    const code = dec ? Number(dec) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return NAMED_ENTITIES[(name ?? '').toLowerCase()] ?? whole;
  });
}

// Markup inside a word: chemical formulas (H<sub>2</sub>O), exponents, and MathML's token elements.
const IN_WORD_TAGS = /^(?:sub|sup|mml:mi|mml:mn|mml:mo|mml:msub|mml:msup|mml:mrow|mml:mtext|mi|mn|mo|msub|msup|mrow|mtext)$/i;

/**
 * The JATS elements whose look a citation keeps, as CSL's rich text writes them (citeproc-js renders
 * these and no other). What a publisher set in italics (a species, a gene, a ship, a book's title inside
 * a title) also keeps its letter case: a style's title case must not make "Salmonella Enterica".
 */
const KEPT_MARKUP: Record<string, { open: string; close: string }> = {
  i: { open: '<i><span class="nocase">', close: '</span></i>' },
  italic: { open: '<i><span class="nocase">', close: '</span></i>' },
  em: { open: '<i><span class="nocase">', close: '</span></i>' },
  b: { open: '<b>', close: '</b>' },
  bold: { open: '<b>', close: '</b>' },
  strong: { open: '<b>', close: '</b>' },
  sup: { open: '<sup>', close: '</sup>' },
  sub: { open: '<sub>', close: '</sub>' },
};

/** Any element, as Crossref's deposits hold them. */
const ANY_TAG = /<(\/?)([\w:.-]+)[^>]*>/g;

/**
 * The elements a pasted text may carry (copied from a publisher's page, a Crossref title or a reference
 * manager): HTML's and JATS's inline ones and MathML's. Only these: "p<0.05" and a SICI DOI's
 * "<213::AID-JBM9>" are text.
 */
const INLINE_TAG =
  /<(\/?)((?:jats|mml):[\w.-]+|(?:i|b|u|em|strong|sub|sup|span|small|sc|scp|italic|bold|a|br|font|tt|math|mi|mn|mo|msub|msup|mrow|mtext))(?:\s[^<>]*)?\/?>/gi;

/**
 * Crossref titles may carry JATS markup (<i>, <scp>, <sub>, MathML) and line breaks. Publishers often
 * leave no space at a tag ("of<i>Salmonella enterica</i>from"): a tag between two letters stands for a
 * word boundary, except inside a word: MathML tokens, sub- and superscripts unless a lower-case word
 * follows, and a small-capital initial that starts a word ("<scp>T</scp>reebase"). With `keep`, italics,
 * bold, sub- and superscripts are written as CSL rich text; every other element is dropped (small
 * capitals too: Wiley sets acronyms and single initials in them, which read right as capitals).
 */
function fromJats(text: string, keep: boolean, tags: RegExp = ANY_TAG): string {
  // An unbalanced kept element would run to the end of the citation: kept only where it closes.
  const balanced = (name: string) => {
    const opens = text.match(new RegExp(`<${name}(?:\\s[^>]*)?>`, 'gi'))?.length ?? 0;
    const closes = text.match(new RegExp(`</${name}\\s*>`, 'gi'))?.length ?? 0;
    return opens === closes;
  };
  return decodeEntities(
    text
      .replace(tags, (tag, closing: string, name: string, offset: number, whole: string) => {
        const before = whole.slice(0, offset);
        const after = whole.slice(offset + tag.length);
        let boundary = ' ';
        if (!/\p{L}$/u.test(before.replace(/<[^>]*>/g, '')) || !/^(?:<[^>]*>)*\p{L}/u.test(after)) boundary = '';
        // A subscript ends a word when a lower-case word follows ("NO<sub>x</sub>and"), not in "H<sub>2</sub>O".
        else if (/^(?:sub|sup)$/i.test(name)) boundary = closing && /^(?:<[^>]*>)*\p{Ll}/u.test(after) ? ' ' : '';
        else if (IN_WORD_TAGS.test(name)) boundary = '';
        // A small-capital initial: "<scp>T</scp>reebase" at a word's start, one capital inside the element.
        else if (closing && /^scp$/i.test(name) && /(?:^|[^\p{L}])<scp[^>]*>\p{Lu}$/u.test(before)) boundary = '';
        const kept = keep ? KEPT_MARKUP[name.toLowerCase()] : undefined;
        if (!kept || !balanced(name)) return boundary;
        return closing ? `${kept.close}${boundary}` : `${boundary}${kept.open}`;
      })
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** A Crossref text as plain text: markup removed, entities decoded, one line. */
export function plainText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return fromJats(text, false) || undefined;
}

/** A Crossref text as CSL rich text: italics, bold, sub- and superscripts kept, entities decoded. */
export function richText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const rich = fromJats(text, true);
  return fromJats(rich, false) ? rich : undefined;
}

/**
 * A pasted text's inline markup and HTML entities read as a Crossref title's are (plainText): "&amp;" is
 * "&", "Al<sub>2</sub>O<sub>3</sub>" is "Al2O3" and "between<i>Chlamydia</i>Infection" three words, so
 * that a reference copied with its markup reads as its record does (§25). One line.
 */
export function inlineMarkupAsText(text: string): string {
  return fromJats(text, false, INLINE_TAG);
}

/** CSL rich text as plain text (what matching, keys and plain readers need). */
export function withoutMarkup(text: string): string {
  return text.replace(/<\/?(?:i|b|sup|sub|span)\b[^>]*>/g, '');
}

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
  const decoded = (text: string | undefined) => (text === undefined ? undefined : decodeEntities(text).trim());
  const names = (people ?? []).flatMap((person): Record<string, string>[] => {
    const family = decoded(person.family);
    const given = decoded(person.given);
    if (family) return [given ? { family, given } : { family }];
    const name = decoded(person.name);
    // An organisation: a literal name, never split into a family and given names.
    return name ? [{ literal: name }] : [];
  });
  return names.length > 0 ? names : undefined;
}

export function withoutEmpty(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

/**
 * Words that mark a title's language: the commonest short words of each language, that English titles do
 * not use. Crossref's `language` cannot be asked for with `select` (its list of selectable fields has no
 * `language`) and few records carry it, so the title itself tells.
 */
const LANGUAGE_WORDS: [string, RegExp][] = [
  ['de', /^(?:der|die|das|und|den|dem|des|ein|eine|einer|im|zur|zum|über|für|mit|bei|von|auf|nicht|ist)$/],
  ['fr', /^(?:le|la|les|de|des|du|et|une|dans|sur|pour|au|aux|par|est|en|l|d|qu)$/],
  ['es', /^(?:el|los|las|de|del|y|una|en|para|por|con|sobre|entre|como|al|lo)$/],
  ['pt', /^(?:o|os|as|de|do|da|dos|das|e|um|uma|em|no|na|nos|nas|para|com|sobre|entre)$/],
  ['it', /^(?:il|lo|gli|della|delle|dei|degli|di|e|un|una|nel|nella|per|con|sul|sulla|tra)$/],
  ['nl', /^(?:het|een|van|en|de|in|op|voor|met|bij|naar|over|uit)$/],
];
const ENGLISH_WORDS = /^(?:the|of|and|in|for|on|with|a|an|to|from|by|at|as|its|is|are|between|under|using|after|among|into)$/;

/** Scripts whose titles no style should case: the language is not English. */
const SCRIPT_LANGUAGES: [RegExp, string][] = [
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Devanagari}/u, 'hi'],
];

/**
 * The language of a title when it is plainly not English, else undefined. citeproc applies a style's title
 * case only to English titles (an item without a language counts as English): "die Entwicklung der
 * Stadt" must not become "Die Entwicklung Der Stadt". A title with as many English marker words as any
 * other language's is left English.
 */
export function titleLanguage(title: string | undefined): string | undefined {
  if (!title) return undefined;
  const text = withoutMarkup(title);
  const letters = text.match(/\p{L}/gu) ?? [];
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (letters.length > 0 && latin / letters.length < 0.5) {
    return SCRIPT_LANGUAGES.find(([script]) => script.test(text))?.[1];
  }
  const words = text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  const english = words.filter((word) => ENGLISH_WORDS.test(word)).length;
  let best: string | undefined;
  let most = 0;
  for (const [language, marker] of LANGUAGE_WORDS) {
    const count = words.filter((word) => marker.test(word)).length;
    if (count > most) {
      best = language;
      most = count;
    }
  }
  return best && most >= 2 && most > english ? best : undefined;
}

/**
 * Where a book-type work's containers go. Crossref's container of a book is the series it is in
 * ("Lecture Notes in Mathematics"): the series, not a book the work is part of ("In Lecture Notes…"). But
 * publishers also deposit encyclopedia and dictionary entries as books, their container the reference work
 * and often with a page range: those are entries in that work.
 */
function bookPlacement(work: CrossrefWork, title: string | undefined, containers: string[]) {
  const others = containers.filter((name) => normalizeText(name) !== normalizeText(title ?? ''));
  const container = others[0];
  if (container && (REFERENCE_WORK.test(container) || work.page)) {
    return { type: REFERENCE_WORK.test(container) ? 'entry-encyclopedia' : 'chapter', container, series: others[1] };
  }
  return { type: 'book', container: undefined, series: container };
}

/**
 * A Crossref work (or a DataCite record read into its shape) as a CSL-JSON item; Crossref's own format is
 * nearly CSL already. Text fields are CSL rich
 * text (the italics, bold, sub- and superscripts the publisher set; entities decoded), which citeproc
 * renders and CSL-JSON readers accept; exports that need plain text remove the markup.
 */
export function cslFromCrossref(work: CrossrefWork): CslItem {
  const plainTitle = plainText(work.title?.[0]);
  const plainSubtitle = plainText(work.subtitle?.[0]);
  const title = richText(work.title?.[0]);
  const subtitle = richText(work.subtitle?.[0]);
  // The subtitle is judged on its words; the markup comes along when it is kept.
  const fullTitle = title && subtitle && withSubtitle(plainTitle, plainSubtitle) !== plainTitle ? `${title}: ${subtitle}` : title;
  const containers = (work['container-title'] ?? []).map(richText).filter((name): name is string => name !== undefined);
  const dateParts = work.issued?.['date-parts']?.[0]?.filter((part): part is number => typeof part === 'number');
  const placed = BOOK_TYPES.has(work.type ?? '')
    ? bookPlacement(work, plainTitle, containers)
    : {
        type: CSL_TYPES[work.type ?? ''] ?? 'document',
        container: containers[0],
        // A chapter's second container is the series its book is in ("Lecture Notes in Computer Science").
        series: work.type?.startsWith('book') && containers[1] !== containers[0] ? containers[1] : undefined,
      };
  return withoutEmpty({
    id: work.DOI,
    type: placed.type,
    genre: work.type === 'posted-content' ? 'Preprint' : undefined,
    title: fullTitle,
    author: cslPeople(work.author),
    editor: cslPeople(work.editor),
    issued: dateParts?.length ? { 'date-parts': [dateParts] } : undefined,
    'container-title': placed.container,
    'collection-title': placed.series,
    volume: work.volume,
    issue: work.issue,
    page: work.page,
    publisher: work.publisher === undefined ? undefined : decodeEntities(work.publisher),
    ISBN: work.ISBN?.[0],
    ISSN: work.ISSN?.[0],
    DOI: work.DOI,
    URL: work.URL,
    version: work.version,
    language: titleLanguage(fullTitle),
  }) as CslItem;
}

/**
 * What a citation style needs that the export keeps differently: Crossref's `editor` of a journal article
 * is the journal's handling editor, whom no style names ("edited by …" in MLA, Harvard and Vancouver
 * would credit them with the paper); the editors of a book or proceedings are kept.
 */
export function citableItem(csl: CslItem): CslItem {
  if (csl.type !== 'article-journal' && csl.type !== 'article') return csl;
  const { editor: _handlingEditor, ...rest } = csl;
  return rest as CslItem;
}
