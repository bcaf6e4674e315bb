/**
 * BibTeX citation keys a person can read and type, as reference managers make them: the first author's
 * family name, the year and the title's first significant word, lower case and ASCII (`boettiger2018noise`
 * for Boettiger, 2018, "From noise to knowledge: …"), as Google Scholar's BibTeX and Better BibTeX's
 * `[auth:lower][year][shorttitle1_0:lower]` write them. The words skipped before the first significant one
 * are those of Zotero's BibTeX export (its translator's `citeKeyTitleBannedRe`): the articles of English,
 * German, French and Spanish and a few English prepositions. Keys are unique within an answer: a second
 * `boettiger2018noise` is `boettiger2018noisea`, then `…b` (Better BibTeX's postfix).
 */
import type { CslItem } from '../model/csl.js';

/** Words a key skips at the start of a title (Zotero's BibTeX translator's list). */
const SKIPPED =
  /^(?:a|an|the|some|from|on|in|to|of|do|with|der|die|das|ein|eine|einer|eines|einem|einen|un|une|la|le|l|el|las|los|al|uno|una|unos|unas|de|des|del|d)$/;

/**
 * A BibTeX citation key made of `text`: letters, digits and underscores only, which every BibTeX reader
 * (citation-js's own among them) takes as a key; any other run of characters becomes one underscore.
 * Empty when `text` holds none of them.
 */
export function citationKey(text: string): string {
  return text
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/** Text as the ASCII words of a key: accents dropped ("Sørensen" → "sorensen"), lower case, other characters out. */
function asciiWords(text: string): string[] {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/[æÆ]/g, 'ae')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

type Name = { family?: unknown; literal?: unknown };

/** The first author's family name (else the first editor's, else an organisation's first significant word), as a key word. */
function authorWord(csl: CslItem): string {
  for (const people of [csl.author, csl.editor]) {
    const first = Array.isArray(people) ? (people[0] as Name | undefined) : undefined;
    if (!first) continue;
    if (typeof first.family === 'string') return asciiWords(first.family).join('');
    if (typeof first.literal === 'string') return asciiWords(first.literal).find((word) => !SKIPPED.test(word)) ?? '';
  }
  return '';
}

function yearWord(csl: CslItem): string {
  const year = (csl.issued as { 'date-parts'?: unknown[][] } | undefined)?.['date-parts']?.[0]?.[0];
  return typeof year === 'number' || (typeof year === 'string' && /^\d{4}$/.test(year)) ? String(year) : '';
}

/** The title's first significant word holding a letter ("2019" is no word of a title for a key). */
function titleWord(csl: CslItem): string {
  return (
    asciiWords(typeof csl.title === 'string' ? csl.title : '').find((word) => /[a-z]/.test(word) && !SKIPPED.test(word)) ?? ''
  );
}

/**
 * The readable key of a record: author, year and title word, each left out when the record lacks it
 * (`boettiger2018noise`; `noise2018` without an author, so that a key starts with a letter); empty when the
 * record gives no author and no
 * title word (a title in a script with no ASCII letters), so that the caller falls back on an identifier.
 */
export function readableKey(csl: CslItem): string {
  const author = authorWord(csl);
  const title = titleWord(csl);
  if (!author) return title ? `${title}${yearWord(csl)}`.slice(0, 64) : '';
  return `${author}${yearWord(csl)}${title}`.slice(0, 64);
}

/** The postfix of the n-th repeat of a key (from 1): a … z, then aa, ab, … */
function postfix(n: number): string {
  let rest = n;
  let out = '';
  while (rest > 0) {
    rest -= 1;
    out = String.fromCharCode(97 + (rest % 26)) + out;
    rest = Math.floor(rest / 26);
  }
  return out;
}

/**
 * Each item's key within one answer: its record's readable key, else its fallback (made a key), unique
 * with a postfix for every repeat (`…a`, `…b`). `fallback` is also used when the record is absent.
 */
export function uniqueKeys(items: readonly { csl?: CslItem; fallback: string }[]): string[] {
  const used = new Set<string>();
  return items.map(({ csl, fallback }) => {
    const base = (csl ? readableKey(csl) : '') || citationKey(fallback) || 'reference';
    let key = base;
    for (let n = 1; used.has(key); n += 1) key = `${base}${postfix(n)}`;
    used.add(key);
    return key;
  });
}
