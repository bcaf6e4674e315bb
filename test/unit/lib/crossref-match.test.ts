/**
 * Matching a scholarly-index paper to a Crossref work, on recorded Crossref answers: the recording of
 * works by Carl Boettiger for the cases, and 22 recorded answers (test/fixtures/crossref) for the
 * measurement the threshold was chosen on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { worksQuery } from '../../../lib/citations/crossref-client.js';
import {
  bestMatch,
  type CrossrefWork,
  isGenericTitle,
  isNotice,
  normalizeText,
  parseScholarSummary,
  type ScholarRecord,
  TITLE_SIMILARITY_THRESHOLD,
  titleNumbers,
  titleSimilarity,
  workYear,
} from '../../../lib/citations/match.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { sample } from '../../../lib/local/samples.js';

const boettiger = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items;

/** A paper as the index summarises it: "C Boettiger, A Hastings - Venue, 2013 - site". */
function paper(title: string, summary: string): ScholarRecord {
  return parseScholarSummary(title, summary);
}

describe('parseScholarSummary', () => {
  it('reads authors, year and no venue from the recorded "JC Robinson, VG Saúco - 2010 - books.google.com"', () => {
    const [first] = sample('google_scholar').organic_results as { title: string; publication_info: { summary: string } }[];
    expect(parseScholarSummary(first?.title ?? '', first?.publication_info.summary ?? null)).toEqual({
      title: 'Bananas and plantains',
      authors: [
        { given: 'JC', family: 'Robinson' },
        { given: 'VG', family: 'Saúco' },
      ],
      year: 2010,
      venue: null,
    });
  });

  it('reads the venue before the year from the recorded "NW Simmonds - The Evolution of the Bananas., 1962 - cabdirect.org"', () => {
    const [, second] = sample('google_scholar').organic_results as { title: string; publication_info: { summary: string } }[];
    expect(parseScholarSummary(second?.title ?? '', second?.publication_info.summary ?? null)).toMatchObject({
      authors: [{ given: 'NW', family: 'Simmonds' }],
      year: 1962,
      venue: 'The Evolution of the Bananas.',
    });
  });

  it('keeps the authors a cut-short list shows, and knows no author or year without a summary', () => {
    expect(paper('T', 'C Boettiger, N Ross, A Hastings… - Theoretical Ecology, 2013 - Springer').authors).toHaveLength(3);
    expect(parseScholarSummary('T', null)).toEqual({ title: 'T', authors: [], year: null, venue: null });
  });
});

describe('titleSimilarity', () => {
  it('is 1 across markup, Unicode hyphens, case and a trailing full stop', () => {
    expect(
      titleSimilarity(
        'Treebase: an R package for discovery, access and manipulation of online phylogenies.',
        '<scp>T</scp>reebase: an<scp>R</scp>package for discovery, access and manipulation of online phylogenies',
      ),
    ).toBe(1);
    expect(titleSimilarity('life-history trade-offs', 'life‐history trade‐offs')).toBe(1);
  });

  it('compares a title the index cut short with as much of the other', () => {
    expect(titleSimilarity('After the games are over: life-history trade-offs drive …', boettiger[7]?.title?.[0] ?? '')).toBe(1);
  });
});

describe('bestMatch on the recorded answer', () => {
  it('takes the work whose title, first author and year match', () => {
    const found = bestMatch(
      paper(
        'Early warning signals: the charted and uncharted territories',
        'C Boettiger, N Ross, A Hastings - Theoretical Ecology, 2013 - Springer',
      ),
      boettiger,
    );
    expect(found?.work.DOI).toBe('10.1007/s12080-013-0192-6');
  });

  it('refuses the near-miss: same author, shared words, a year apart, another paper', () => {
    const prosecutor = paper(
      "Early warning signals and the prosecutor's fallacy",
      'C Boettiger, A Hastings - Proceedings of the Royal Society B, 2012 - royalsocietypublishing.org',
    );
    const nearest = Math.max(...boettiger.map((work) => titleSimilarity(prosecutor.title, work.title?.[0] ?? '')));
    expect(nearest).toBeGreaterThan(0.5);
    expect(bestMatch(prosecutor, boettiger)).toBeUndefined();
  });

  it('refuses the right title with another first author, or issued years away', () => {
    expect(bestMatch(paper('The forecast trap', 'J Smith - Ecology Letters, 2022 - Wiley'), boettiger)).toBeUndefined();
    expect(bestMatch(paper('The forecast trap', 'C Boettiger - Ecology Letters, 2017 - Wiley'), boettiger)).toBeUndefined();
    expect(bestMatch(paper('The forecast trap', 'C Boettiger - Ecology Letters, 2022 - Wiley'), boettiger)?.work.DOI).toBe(
      '10.1111/ele.14024',
    );
  });

  it('prefers the published article to its preprint of the same title, unless the year says preprint', () => {
    const title = 'After the games are over: life-history trade-offs drive dispersal attenuation following range expansion';
    expect(
      bestMatch(paper(title, 'TA Perkins, C Boettiger, BL Phillips - Ecology and Evolution, 2016 - Wiley'), boettiger)?.work.DOI,
    ).toBe('10.1002/ece3.2314');
    expect(
      bestMatch(paper(title, 'TA Perkins, C Boettiger, BL Phillips - bioRxiv, 2015 - biorxiv.org'), boettiger)?.work.DOI,
    ).toBe('10.1101/014852');
  });

  it('finds nothing in the recorded empty answer', () => {
    const empty = (JSON.parse(crossrefRecording('noResults')) as { message: { items: CrossrefWork[] } }).message.items;
    expect(bestMatch(paper('Bananas and plantains', 'JC Robinson, VG Saúco - 2010 - books.google.com'), empty)).toBeUndefined();
  });
});

describe('the threshold, measured on 22 recorded Crossref answers', () => {
  const answers = JSON.parse(
    readFileSync(new URL('../../fixtures/crossref/recorded-answers-items.json', import.meta.url), 'utf8'),
  ) as {
    items: CrossrefWork[];
  }[];
  // Each recorded work with a title and an author is looked up among the *other* works of its answer:
  // whatever is accepted there is another work, the near-misses a real query meets.
  const lookups = answers.flatMap((answer) =>
    answer.items.flatMap((work) => {
      const title = work.title?.[0];
      const first = work.author?.[0];
      if (!title || !first?.family) return [];
      const query: ScholarRecord = {
        title,
        authors: [{ given: first.given ?? '', family: first.family }],
        year: workYear(work),
        venue: null,
      };
      return [{ query, others: answer.items.filter((other) => other.DOI.toLowerCase() !== work.DOI.toLowerCase()) }];
    }),
  );

  it('looks up 370 works', () => {
    expect(answers).toHaveLength(22);
    expect(lookups).toHaveLength(370);
  });

  it('would give 17 of them a wrong DOI on title similarity alone', () => {
    const byTitleOnly = lookups.filter(({ query, others }) =>
      others.some((other) => titleSimilarity(query.title, other.title?.[0] ?? '') >= TITLE_SIMILARITY_THRESHOLD),
    );
    expect(byTitleOnly).toHaveLength(17);
  });

  it('with the author and year gates accepts no work of another title; 8 take a same-titled twin', () => {
    const accepted = lookups.flatMap(({ query, others }) => {
      const match = bestMatch(query, others);
      return match ? [{ query: query.title, took: match.work.title?.[0] ?? '' }] : [];
    });
    expect(accepted.filter(({ query, took }) => normalizeText(query) !== normalizeText(took))).toEqual([]);
    // Twins: one report deposited twice, a preprint's versions .1 and .2: the same work under two DOIs.
    expect(accepted).toHaveLength(8);
  });

  it('leaves a margin: the most similar different title that passes the gates scores 0.78', () => {
    const similarities = lookups.flatMap(({ query, others }) =>
      others
        .filter((other) => normalizeText(other.title?.[0] ?? '') !== normalizeText(query.title))
        .filter((other) => bestMatch(query, [{ ...other, title: [query.title] }]) !== undefined)
        .map((other) => titleSimilarity(query.title, other.title?.[0] ?? '')),
    );
    const highest = Math.max(...similarities);
    expect(highest).toBeCloseTo(0.778, 3);
    expect(highest).toBeLessThan(TITLE_SIMILARITY_THRESHOLD);
  });
});

describe('worksQuery', () => {
  it('asks by title, first author and a year either side, for five candidates, with the mailto', () => {
    const query = worksQuery(
      paper(
        'Early warning signals: the charted and uncharted territories',
        'C Boettiger, N Ross - Theoretical Ecology, 2013 - Springer',
      ),
      'ops@example.org',
    );
    expect(Object.fromEntries(query)).toMatchObject({
      'query.bibliographic': 'Early warning signals: the charted and uncharted territories',
      'query.author': 'Boettiger',
      filter: 'from-pub-date:2012,until-pub-date:2014',
      rows: '5',
      mailto: 'ops@example.org',
    });
    expect(query.get('select')?.split(',')).toContain('DOI');
  });
});

describe('the rules against guessing', () => {
  it('knows notices by their title or type, and not a paper that merely starts alike', () => {
    expect(isNotice('Erratum to: The forecast trap')).toBe(true);
    expect(isNotice('Author Correction: The forecast trap')).toBe(true);
    expect(isNotice('Acknowledgement to Reviewers of Climate in 2018')).toBe(true);
    expect(isNotice('Reply to comment on "The forecast trap"')).toBe(true);
    expect(isNotice('The forecast trap', 'peer-review')).toBe(true);
    expect(isNotice('The forecast trap', 'journal-article')).toBe(false);
    expect(isNotice('Correctional facilities and tuberculosis')).toBe(false);
  });

  it('reads the numbers of a title, and knows generic titles', () => {
    expect(titleNumbers('Global Burden of Disease Study 2015, part 02')).toEqual(['2015', '2']);
    expect(isGenericTitle('EDITORIAL')).toBe(true);
    expect(isGenericTitle('Introduction: Guattari and Ecology')).toBe(false);
  });

  it('takes a paper titled like a notice when the index lists it so', () => {
    const work = {
      DOI: '10.1/r',
      title: ['Response to drought in maize'],
      author: [{ family: 'Okafor' }],
      issued: { 'date-parts': [[2020]] },
    };
    expect(bestMatch(paper('Response to drought in maize', 'A Okafor - Crop Science, 2020 - Wiley'), [work])?.work.DOI).toBe(
      '10.1/r',
    );
  });
});
