/**
 * Whether a tool result's text carries what its structuredContent holds: every string and number of the
 * data, found in the text once white space is made single. The exceptions are the values a model has no
 * use for (`displayed_link`, which repeats the link, and thumbnails), listed in TEXT_EXCEPTIONS.
 */

/** Keys whose values the text may leave out, and why: a duplicate of the link, or a picture's address. */
export const TEXT_EXCEPTIONS: ReadonlySet<string> = new Set(['displayed_link', 'thumbnail', 'thumbnails', 'serpapi_thumbnail']);

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Every string and number leaf of a value, with its path; exceptions left out. */
export function* leaves(value: unknown, path = ''): Generator<[string, string]> {
  if (typeof value === 'string') {
    if (value.trim() !== '') yield [path, squeeze(value)];
    return;
  }
  if (typeof value === 'number') {
    yield [path, String(value)];
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, inner] of value.entries()) yield* leaves(inner, `${path}[${i}]`);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (TEXT_EXCEPTIONS.has(key)) continue;
      yield* leaves(inner, path ? `${path}.${key}` : key);
    }
  }
}

/** The leaves of `data` the text does not contain, as `path = value`. */
export function missingFromText(data: unknown, text: string): string[] {
  const haystack = squeeze(text);
  const missing: string[] = [];
  for (const [path, value] of leaves(data)) if (!haystack.includes(value)) missing.push(`${path} = ${value.slice(0, 80)}`);
  return missing;
}
