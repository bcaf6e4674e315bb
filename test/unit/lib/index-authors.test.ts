/**
 * Who the index's author names are: a person ("JC Robinson": initials and a family name) or an organisation,
 * kept as one literal name in every style and export (model/scholar.ts parseScholarAuthor). An organisation
 * that begins with an acronym ("US Census Bureau") looks like a person's initials; the words after it tell.
 * False alarms are measured on every person of the recorded Crossref works (their given and family names
 * written as the index writes a person) and on every recorded index line; catches on every organisation
 * those works name (Crossref's `name` without `family`, written whole as the index writes one).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScholarAuthor, summaryAuthorNames } from '../../../lib/citations/model/scholar.js';
import { sample } from '../../../lib/local/samples.js';

const RECORDED_WORKS = [
  'crossref/recorded-answers-items.json',
  'crossref/recorded-answers-reference-matcher.json',
  'crossref/records-versions-and-numbers.json',
  'crossref/reference-strings.json',
  'crossref/works-reference-matcher.json',
  'citations/hand-checked.json',
];

type Person = { given?: string; family?: string; name?: string };

/** Every author and editor of every recorded Crossref work, wherever the file holds them. */
function recordedPeople(): Person[] {
  const people: Person[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const field of ['author', 'editor'] as const) {
        const list = (value as Record<string, unknown>)[field];
        if (Array.isArray(list)) people.push(...list.filter((p): p is Person => typeof p === 'object' && p !== null));
      }
      Object.values(value).forEach(walk);
    }
  };
  for (const file of RECORDED_WORKS) walk(JSON.parse(readFileSync(new URL(`../../fixtures/${file}`, import.meta.url), 'utf8')));
  walk(
    JSON.parse(
      readFileSync(new URL('../../../lib/local/samples/crossref/works-ecology-carl-boettiger.json', import.meta.url), 'utf8'),
    ),
  );
  return people;
}

/** A person as the index writes one: the initials of the given names, then the family name ("JC Robinson"). */
function asIndexWrites({ given, family }: Person): string {
  const initials = (given ?? '')
    .split(/[\s.\-‐]+/u)
    .map((name) => /\p{L}/u.exec(name)?.[0].toUpperCase() ?? '')
    .join('')
    .slice(0, 4);
  return `${initials} ${family}`;
}

describe('an author of the index: person or organisation', () => {
  const people = recordedPeople();

  it('reads every person of the recorded Crossref works, written as the index writes one, as a person: 0 of 2,569 taken for an organisation', () => {
    const names = [...new Set(people.filter((p) => p.given && p.family).map(asIndexWrites))];
    expect(names).toHaveLength(2569);
    // 88 of them have a family name of several words ("Castro Rodriguez", "van der Merwe").
    expect(names.filter((name) => name.split(' ').length > 2)).toHaveLength(88);
    const organisations = names.filter((name) => parseScholarAuthor(name)?.organisation);
    expect(organisations).toEqual([]);
  });

  it('reads every organisation the recorded works name, written whole, as one name: 7 of 7', () => {
    // Crossref's `name` without a family name is how publishers deposit an organisation ("et al." is a
    // publisher's slip, not an author).
    const names = [...new Set(people.flatMap((p) => (p.name && !p.family && p.name !== 'et al.' ? [p.name] : [])))];
    expect(names).toHaveLength(7);
    // An acronym first, as a person's initials would stand (a no-break space after "Panel", as deposited).
    expect(names.filter((name) => name.startsWith('EFSA Panel'))).toHaveLength(1);
    for (const name of names) {
      // Its words, each space one space.
      expect(parseScholarAuthor(name), name).toEqual({ given: '', family: name.replace(/\s+/g, ' '), organisation: true });
    }
  });

  it('reads every author of the recorded index lines as a person', () => {
    const lines = JSON.parse(readFileSync(new URL('../../fixtures/scholar/summary-lines.json', import.meta.url), 'utf8')) as {
      lines: { summary: string }[];
    };
    const pages = (['google_scholar', 'google_scholar_authors'] as const).flatMap(
      (name) => (sample(name).organic_results as { publication_info?: { summary?: string } }[]) ?? [],
    );
    const names = [
      ...new Set(
        [...lines.lines.map((l) => l.summary), ...pages.map((r) => r.publication_info?.summary ?? null)].flatMap(
          summaryAuthorNames,
        ),
      ),
    ];
    expect(names).toHaveLength(37);
    expect(names.filter((name) => parseScholarAuthor(name)?.organisation)).toEqual([]);
  });

  it('takes an acronym for initials unless a number or a word only bodies are named by follows it among two words or more', () => {
    // Constructed: each rule alone.
    expect(parseScholarAuthor('NCHS 2019')).toEqual({ given: '', family: 'NCHS 2019', organisation: true });
    expect(parseScholarAuthor('UK Office for National Statistics')?.organisation).toBe(true);
    expect(parseScholarAuthor('NCD Risk Factor Collaboration')?.organisation).toBe(true);
    // A one-word family name that is also a body's word is a family name ("Bureau", "Board" are surnames).
    expect(parseScholarAuthor('M Bureau')).toEqual({ given: 'M', family: 'Bureau' });
    expect(parseScholarAuthor('JA Castro Rodriguez')).toEqual({ given: 'JA', family: 'Castro Rodriguez' });
    // A profile's name is a person's, whatever its words.
    expect(parseScholarAuthor('US Census Bureau', { person: true })).toEqual({ given: 'US', family: 'Census Bureau' });
  });
});
