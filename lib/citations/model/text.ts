/** Text as the matchers and records compare it. */

/** Lower case, accents and markup removed, only letters and digits, single spaces. */
export function normalizeText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Line breaks of every kind: CR, LF, VT, FF, NEL, and Unicode's line and paragraph separators. */
const LINE_BREAK = '[\\r\\n\\v\\f\\u0085\\u2028\\u2029]';

/**
 * A reference as pasted (from a PDF, a word processor, a web page), as one line of text: a word the paste
 * hyphenated across a line break joined again (`Poly-\nzos` → `Polyzos`, `nano-\nfibers` → `nanofibers`:
 * the matchers compare a title's letters without its spaces and hyphens, so a real hyphen lost there costs
 * nothing, while a name split by the typesetter is whole again), soft hyphens and zero-width characters removed, every
 * other run of white space, line breaks, tabs and no-break spaces included, one space, and any other
 * control character (C0, DEL, C1) and lone surrogate read as a space. Pure: the same text, however
 * pasted, reads the same.
 */
export function cleanReference(text: string): string {
  return text
    .toWellFormed()
    .replace(new RegExp(`(?<=\\p{L})-[^\\S\\r\\n]*${LINE_BREAK}+\\s*(?=\\p{Ll})`, 'gu'), '')
    .replace(new RegExp(`\\u00ad(?:[^\\S\\r\\n]*${LINE_BREAK}+\\s*)?`, 'gu'), '')
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\ufffd\s]+/gu, ' ')
    .trim();
}
