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
