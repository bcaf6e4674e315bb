/**
 * The reference matcher on a labelled set of free-text references made from recorded works (sources:
 * test/fixtures/SOURCES.md): every set is built and measured inside its test.
 * - Pasted: the 271 real reference strings (reference-strings.json), each also as a PDF, a word processor or
 *   a web page pastes it (line breaks of every kind, a word hyphenated across a line, tabs, no-break spaces,
 *   soft hyphens, zero-width characters, a list number before it): every variant must give what its clean
 *   form gives.
 * - Numbered siblings: recorded works numbered "Part I", "Part III", "II", "—III", "Part 1", "Part 6",
 *   rendered in two styles, against an unnumbered sibling constructed beside each (its title without the
 *   number); and recorded unnumbered works cited with a number they lack ("…, Part 2", "… Vol. 2", "… II",
 *   "Part II: …"): a number the candidate's title lacks or differs from refuses it.
 * - Datasets: recorded articles each beside a dataset deposited with it (constructed as Dryad deposits them
 *   in Crossref: "Data from: <title>", type dataset), and the recorded Dryad dataset of DataCite beside its
 *   article (constructed from the citation DataCite's record gives): a reference to the data gets the
 *   dataset's DOI, a reference to the article the article's.
 * A wrong DOI is the failure that matters: none is allowed. Recall is logged and held at what was measured.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { matchReference } from '../../../lib/citations/match/reference-match.js';
import { citableItem, cslFromCrossref } from '../../../lib/citations/model/csl.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { type CitationRenderer, citationRenderer } from '../../../lib/citations/render/render.js';
import { workFromDataCite } from '../../../lib/citations/sources/datacite.js';

interface Case {
  name: string;
  text: string;
  doi: string | null;
  works: CrossrefWork[];
}

interface Tally {
  cases: number;
  positives: number;
  right: number;
  wrong: string[];
  /** Positives given no DOI, with the rule that refused them. */
  missed: string[];
  /** The DOI each case was given (null for none), in case order. */
  given: (string | null)[];
}

function measure(cases: readonly Case[]): Tally {
  const tally: Tally = { cases: cases.length, positives: 0, right: 0, wrong: [], missed: [], given: [] };
  for (const c of cases) {
    const outcome = matchReference(c.text, c.works);
    if (c.doi) tally.positives++;
    const doi = outcome.matched?.doi ?? null;
    tally.given.push(doi);
    if (doi === null) {
      if (c.doi && outcome.matched === null) tally.missed.push(`${c.name}: ${outcome.rule}`);
      continue;
    }
    if (doi === c.doi) tally.right++;
    else tally.wrong.push(`${c.name}: gave ${doi}, is ${c.doi ?? 'none'}`);
  }
  const recall = tally.positives ? (tally.right / tally.positives).toFixed(3) : 'n/a';
  console.log(
    `${tally.cases} cases, ${tally.positives} positives, ${tally.right} right, ${tally.wrong.length} wrong, recall ${recall}; missed: ${tally.missed.slice(0, 10).join('; ')}`,
  );
  return tally;
}

const fixture = <T>(path: string): T => JSON.parse(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8')) as T;

const strings = fixture<{
  works: Record<string, { record: CrossrefWork }>;
  cases: { text: string; doi: string | null; candidates: string[] }[];
}>('crossref/reference-strings.json');
const versions = fixture<{ record: CrossrefWork }[]>('crossref/records-versions-and-numbers.json').map((r) => r.record);
const boettiger = (
  JSON.parse(
    readFileSync(new URL('../../../lib/local/samples/crossref/works-ecology-carl-boettiger.json', import.meta.url), 'utf8'),
  ) as {
    message: { items: CrossrefWork[] };
  }
).message.items;

/** How pastes break a reference (each one a function of the clean text). */
const PASTES: [name: string, paste: (text: string) => string][] = [
  ['wrapped at 40 characters', (text) => text.replace(/(.{30,40}?) /g, '$1\n')],
  [
    'wrapped with CR LF and a word hyphenated across a line',
    (text) => text.replace(/(.{30,40}?) (\p{Ll}{4})(\p{Ll}{3,})/gu, '$1 $2-\r\n$3'),
  ],
  ['tabs and no-break spaces', (text) => text.replace(/ /g, (_space, i: number) => (i % 2 ? '\t' : '\u00a0'))],
  [
    'soft hyphens and zero-width spaces inside words',
    (text) => text.replace(/(\p{L}{3})(\p{L}{3})/gu, '$1\u00ad$2').replace(/(\p{L}{5})/u, '$1\u200b'),
  ],
  [
    'line separators, form feeds and a byte-order mark',
    (text) => `\ufeff${text.replace(/\. /g, '.\u2028').replace(/, /, ',\f')}`,
  ],
  ['a list number before it and a line break after it', (text) => `[12]\t${text}\n`],
];

/** A rendered reference without its DOI and links: the DOI would decide by itself (rule doi_in_text). */
const withoutLinks = (text: string | undefined) =>
  (text ?? '')
    .replace(/\b(?:https?:\/\/|doi:\s*)\S+/gi, '')
    .replace(/\bAvailable (?:at|from):?\s*/g, '')
    .trim();

let renderer: CitationRenderer;
beforeAll(async () => {
  renderer = await citationRenderer();
}, 120_000);

const record = (doi: string) => {
  const found = strings.works[doi]?.record;
  if (!found) throw new Error(`no recorded work ${doi}`);
  return found;
};

describe('references as they are pasted', () => {
  it('give what their clean form gives, for every real string and every paste: no wrong DOI, every resolved one resolved again', () => {
    const clean: Case[] = strings.cases.map((c, i) => ({
      name: `#${i}`,
      text: c.text,
      doi: c.doi,
      works: c.candidates.map(record),
    }));
    const pasted = clean.flatMap((c) =>
      PASTES.map(([name, paste]): Case => ({ ...c, name: `${c.name} ${name}`, text: paste(c.text) })),
    );
    expect(pasted.length).toBeGreaterThanOrEqual(1_500);
    const before = measure(clean);
    const after = measure(pasted);
    expect(after.wrong).toEqual([]);
    // Every variant of a string resolves exactly as its clean form does.
    const differ = pasted.flatMap((c, i) => {
      const a = before.given[Math.floor(i / PASTES.length)];
      const b = after.given[i];
      return a === b ? [] : [`${c.name}: ${a} became ${b}`];
    });
    expect(differ).toEqual([]);
    expect(after.right).toBe(before.right * PASTES.length);
  });
});

/** A title's numbering taken off: "…. Part I: Gaseous compounds" → "Gaseous compounds" is not meant; the number alone goes. */
function unnumbered(title: string): string {
  return title
    .replace(/<[^>]*>/g, '')
    .replace(/[.,:]?\s*(?:Part\s+(?:\d+|[IVX]+)|—?\s*[IVX]{2,})\b\.?/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('numbered siblings', () => {
  it('never take the unnumbered sibling for a numbered part, nor a numbered part for an unnumbered reference', () => {
    const numbered = versions.filter(
      (work) => /Part\s+(?:\d|[IVX])|\b[IVX]{2,}\b|—III/.test(work.title?.[0] ?? '') && work.author?.length,
    );
    expect(numbered.length).toBeGreaterThanOrEqual(6);
    const cases: Case[] = numbered.flatMap((work, i) => {
      const sibling: CrossrefWork = { ...work, DOI: `10.9999/sibling-${i}`, title: [unnumbered(work.title?.[0] ?? '')] };
      const render = (w: CrossrefWork) => renderer.render(citableItem(cslFromCrossref(w))) as Record<string, string>;
      const rendered = render(work);
      const siblingRendered = render(sibling);
      return ['APA', 'Vancouver'].flatMap((style) => [
        // The numbered part, cited: its DOI, not its sibling's.
        {
          name: `${work.DOI} ${style}`,
          text: rendered[style as 'APA'] ?? '',
          doi: work.DOI.toLowerCase(),
          works: [sibling, work],
        },
        // The sibling, cited: never the numbered part's DOI.
        { name: `${sibling.DOI} ${style}`, text: withoutLinks(siblingRendered[style]), doi: null, works: [work] },
      ]);
    });
    // Recorded unnumbered works cited with a number they lack.
    const traps: Case[] = boettiger
      .filter((work) => work.type === 'journal-article' && !/\d|\b[IVX]{2,}\b/.test(work.title?.[0] ?? ''))
      .flatMap((work) => {
        const text = withoutLinks(renderer.render(citableItem(cslFromCrossref(work))).APA);
        const title = (work.title?.[0] ?? '')
          .replace(/<[^>]*>/g, '')
          .replace(/\s+/g, ' ')
          .trim();
        const at = text.indexOf(title);
        if (at < 0) return [];
        const withTitle = (numberedTitle: string) => text.slice(0, at) + numberedTitle + text.slice(at + title.length);
        return [`${title}, Part 2`, `${title}. Vol. 2`, `${title} II`, `Part II: ${title}`].map((numberedTitle) => ({
          name: `${work.DOI} as "${numberedTitle.slice(0, 50)}"`,
          text: withTitle(numberedTitle),
          doi: null,
          works: [work],
        }));
      });
    expect(traps.length).toBeGreaterThanOrEqual(40);
    const tally = measure([...cases, ...traps]);
    expect(tally.wrong).toEqual([]);
    // The numbered parts themselves are still found beside their siblings.
    expect(tally.right).toBeGreaterThanOrEqual(Math.floor(tally.positives * 0.8));
  });
});

describe('references to datasets', () => {
  it("give the dataset's DOI to a reference to the data and the article's to a reference to the article", () => {
    const articles = boettiger.filter((work) => work.type === 'journal-article' && work.author?.length).slice(0, 12);
    const cases: Case[] = articles.flatMap((article, i) => {
      const title = (article.title?.[0] ?? '')
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      const year = (article.issued?.['date-parts']?.[0]?.[0] ?? 2000) + 1;
      // Deposited as Dryad deposits data with Crossref: the article's title after "Data from:", a dataset.
      const dataset: CrossrefWork = {
        DOI: `10.5061/dryad.constructed${i}`,
        type: 'dataset',
        title: [`Data from: ${title}`],
        author: article.author,
        issued: { 'date-parts': [[year]] },
        publisher: 'Dryad',
      };
      const authors = (article.author ?? [])
        .slice(0, 3)
        .map((a) => `${a.family ?? a.name}, ${(a.given ?? '').replace(/(\p{L})\p{L}*/gu, '$1.')}`)
        .join(', ');
      const articleText = withoutLinks(renderer.render(citableItem(cslFromCrossref(article))).APA);
      return [
        {
          name: `${dataset.DOI} "Data from:"`,
          text: `${authors} (${year}). Data from: ${title}. Dryad Digital Repository. https://example.org/dryad`,
          doi: dataset.DOI.toLowerCase(),
          works: [article, dataset],
        },
        {
          name: `${dataset.DOI} [Data set]`,
          text: `${authors} (${year}). ${title} [Data set]. Dryad.`,
          doi: dataset.DOI.toLowerCase(),
          works: [article, dataset],
        },
        { name: `${article.DOI} the article`, text: articleText, doi: article.DOI.toLowerCase(), works: [article, dataset] },
      ];
    });
    const dryad = workFromDataCite(
      (
        JSON.parse(
          readFileSync(new URL('../../../lib/local/samples/datacite/doi-10.5061-dryad.8515.json', import.meta.url), 'utf8'),
        ) as { data: unknown }
      ).data,
    ) as CrossrefWork;
    // Constructed from the citation DataCite's record of the dataset gives for its article.
    const malaria: CrossrefWork = {
      DOI: '10.1371/journal.ppat.1000446',
      type: 'journal-article',
      title: ['A New Malaria Agent in African Hominids'],
      author: dryad.author?.slice(0, 3),
      issued: { 'date-parts': [[2009]] },
      'container-title': ['PLoS Pathogens'],
      volume: '5',
      issue: '5',
      page: 'e1000446',
    };
    cases.push(
      {
        name: 'Dryad 8515',
        text: 'Ollomo B, Durand P, Prugnolle F, et al. (2011) Data from: A new malaria agent in African hominids. Dryad Digital Repository.',
        doi: '10.5061/dryad.8515',
        works: [malaria, dryad],
      },
      {
        name: 'its article',
        text: 'Ollomo B, Durand P, Prugnolle F, et al. (2009) A new malaria agent in African hominids. PLoS Pathog 5(5): e1000446.',
        doi: '10.1371/journal.ppat.1000446',
        works: [malaria, dryad],
      },
    );
    const tally = measure(cases);
    expect(tally.wrong).toEqual([]);
    expect(tally.right).toBe(tally.positives);
  });
});
