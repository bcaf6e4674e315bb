/**
 * Matching a scholarly-index paper to a Crossref work, on recorded Crossref answers: the recording of
 * works by Carl Boettiger for the cases, and 22 recorded answers (test/fixtures/crossref) for the
 * measurement the threshold was chosen on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bestMatch,
  isGenericTitle,
  isNotice,
  TITLE_SIMILARITY_THRESHOLD,
  titleNumbers,
  titleSimilarity,
} from '../../../lib/citations/match/match.js';
import { parseScholarSummary, type ScholarRecord } from '../../../lib/citations/model/scholar.js';
import { normalizeText } from '../../../lib/citations/model/text.js';
import { type CrossrefWork, workYear } from '../../../lib/citations/model/work.js';
import { worksQuery } from '../../../lib/citations/sources/crossref.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { sample } from '../../../lib/local/samples.js';
import { indexRecord as rec, titledWork as w } from '../../support/match-records.js';

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
      site: 'books.google.com',
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

  it('leaves a margin: the most similar different title that passes the gates scores 0.77', () => {
    const similarities = lookups.flatMap(({ query, others }) =>
      others
        .filter((other) => normalizeText(other.title?.[0] ?? '') !== normalizeText(query.title))
        .filter((other) => bestMatch(query, [{ ...other, title: [query.title] }]) !== undefined)
        .map((other) => titleSimilarity(query.title, other.title?.[0] ?? '')),
    );
    const highest = Math.max(...similarities);
    // 0.78 ("Text Encoding" against "Encoding") is gone: neither has a year, and a work without one is refused.
    expect(highest).toBeCloseTo(0.769, 3);
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

describe('the rules each decided by a test', () => {
  const title = 'Nitrogen uptake by tropical tree seedlings under drought';

  it('compares the last number of a cut title when a space before "…" shows it whole, and its start when not', () => {
    const report = w('Annual report of the forest survey 2015 on drought damage', 'Okafor', 2015);
    expect(bestMatch(rec('Annual report of the forest survey 2013 …', 'Okafor', 2015), [report])).toBeUndefined();
    expect(bestMatch(rec('Annual report of the forest survey 2015 …', 'Okafor', 2015), [report])?.work).toBe(report);
    expect(bestMatch(rec('Annual report of the forest survey 20…', 'Okafor', 2015), [report])?.work).toBe(report);
    // "201 …" shows a whole number, which is not 2015; "201…" may be its start.
    expect(bestMatch(rec('Annual report of the forest survey 201 …', 'Okafor', 2015), [report])).toBeUndefined();
    expect(bestMatch(rec('Annual report of the forest survey 201…', 'Okafor', 2015), [report])?.work).toBe(report);
    expect(bestMatch(rec('Annual report of the forest survey 19…', 'Okafor', 2015), [report])).toBeUndefined();
    const part1 = w('Drought and forest dieback. Part I: observations', 'Okafor', 2014);
    expect(bestMatch(rec('Drought and forest dieback. Part II …', 'Okafor', 2014), [part1])).toBeUndefined();
    expect(bestMatch(rec('Drought and forest dieback. Part I …', 'Okafor', 2014), [part1])?.work).toBe(part1);
    // "Part I…" may be the start of "Part II": a lone Roman letter cut inside the word is not compared.
    expect(bestMatch(rec('Drought and forest dieback. Part I…', 'Okafor', 2014), [part1])?.work).toBe(part1);
  });

  it('reads Roman numerals as numbers: II is 2 anywhere, a lone I only after "Part" or at the end', () => {
    expect(titleNumbers('Generalized reflection groups II')).toEqual(['2']);
    expect(titleNumbers('Poisoning, Part III, and vol. IV')).toEqual(['3', '4']);
    expect(titleNumbers('Part I: the groups I')).toEqual(['1', '1']);
    expect(titleNumbers('Widget, widget as you lead, I am performing well indeed!')).toEqual([]);
    expect(titleNumbers('Generation X and the X-ray of Type IX collagen')).toEqual(['9']);
    const iii = w('Generalized reflection groups III', 'Zara', 2002);
    expect(bestMatch(rec('Generalized reflection groups II', 'Zara', 2002), [iii])).toBeUndefined();
    expect(bestMatch(rec('Generalized reflection groups 3', 'Zara', 2002), [iii])?.work).toBe(iii);
  });

  it('takes no work for a paper without a first author, and does not throw on an empty author list', () => {
    const work = w(title, 'Okafor', 2016);
    expect(bestMatch(rec(title, 'Okafor', 2016), [work])?.work).toBe(work);
    expect(() => bestMatch(rec(title, null, 2016), [work])).not.toThrow();
    expect(bestMatch(rec(title, null, 2016), [work])).toBeUndefined();
    expect(bestMatch(rec(title, '', 2016), [work])).toBeUndefined();
  });

  it('breaks a tie for a paper without a venue by the year first, then a published version over its preprint', () => {
    const preprint2015 = w(title, 'Okafor', 2015, { DOI: '10.1101/p', type: 'posted-content' });
    const article2015 = w(title, 'Okafor', 2015, { DOI: '10.1/a' });
    const article2016 = w(title, 'Okafor', 2016, { DOI: '10.1/a' });
    expect(bestMatch(rec(title, 'Okafor', 2015), [preprint2015, article2015])?.work.DOI).toBe('10.1/a');
    expect(bestMatch(rec(title, 'Okafor', 2015), [article2015, preprint2015])?.work.DOI).toBe('10.1/a');
    expect(bestMatch(rec(title, 'Okafor', 2015), [article2016, preprint2015])?.work.DOI).toBe('10.1101/p');
    expect(bestMatch(rec(title, 'Okafor', 2016), [preprint2015, article2016])?.work.DOI).toBe('10.1/a');
  });

  it('takes the version the venue names: preprint server, journal, proceedings, edition', () => {
    const preprint = w(title, 'Okafor', 2015, { DOI: '10.1101/p', type: 'posted-content' });
    const article = w(title, 'Okafor', 2016, { DOI: '10.1/a', 'container-title': ['Tree Physiology'] });
    expect(bestMatch(rec(title, 'Okafor', 2016, 'bioRxiv'), [article])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2016, 'bioRxiv'), [article, preprint])?.work.DOI).toBe('10.1101/p');
    expect(bestMatch({ ...rec(title, 'Okafor', 2015), site: 'arxiv.org' }, [article])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Tree Physiology'), [preprint])).toBeUndefined();
    const ssrn = w(title, 'Okafor', 2015, { DOI: '10.2139/ssrn.1', 'container-title': ['SSRN Electronic Journal'] });
    expect(bestMatch(rec(title, 'Okafor', 2015, 'SSRN'), [ssrn])?.work.DOI).toBe('10.2139/ssrn.1');
    const chapter = w(title, 'Okafor', 2015, { type: 'book-chapter', 'container-title': ['Lecture Notes in Computer Science'] });
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Tree Physiology'), [chapter])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Lecture Notes in Computer …'), [chapter])?.work).toBe(chapter);
    const conf = w(title, 'Okafor', 2015, {
      type: 'proceedings-article',
      'container-title': ["Proceedings of the 3rd Workshop on Forests - WF '15"],
    });
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Proceedings of the 3rd Workshop on Forests'), [conf])?.work).toBe(conf);
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Proceedings of the 4th Workshop on Forests'), [conf])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Proceedings of the 3rd …'), [conf])?.work).toBe(conf);
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Proceedings of the 4th …'), [conf])).toBeUndefined();
    const journal = w(title, 'Okafor', 2015, { 'container-title': ['Forest Ecology and Management'] });
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Proceedings of the 3rd Workshop on Forests'), [journal])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Forest Ecol. Manag.'), [journal])?.work).toBe(journal);
  });

  it('refuses works and papers without a year', () => {
    expect(bestMatch(rec(title, 'Okafor', 2016), [w(title, 'Okafor', null)])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', null), [w(title, 'Okafor', 2016)])).toBeUndefined();
    expect(
      bestMatch(rec(title, 'Okafor', 2016), [{ ...w(title, 'Okafor', 2016), issued: { 'date-parts': [[null]] } }]),
    ).toBeUndefined();
  });

  it('knows a notice under markup and in each of its wordings', () => {
    const notices = [
      `<i>Erratum</i> to: ${title}`,
      `<b>Correction</b>: ${title}`,
      `Erratum: ${title}`,
      `Errata for ${title}`,
      `Corrigendum to "${title}"`,
      `Corrigenda: ${title}`,
      `Publisher Correction: ${title}`,
      `Editorial Expression of Concern: ${title}`,
      `Expression of concern: ${title}`,
      `Retraction: ${title}`,
      `Retracted: ${title}`,
      `Withdrawn: ${title}`,
      `Addendum: ${title}`,
      `Re: ${title}`.replace('Re: ', 'Re: Correction: '),
      `Reply to ${title}`,
      `Response to comments on ${title}`,
      `Rejoinder to ${title}`,
      `Comment on ${title}`,
      `Comments on ${title}`,
      `Commentary on ${title}`,
      `Authors' reply: ${title}`,
      `Response: ${title}`,
      'Acknowledgement to Reviewers of Forests in 2019',
      'Acknowledgments to the referees',
      `Peer review report 1 on ${title}`,
      `Review of ${title}`,
      `Decision letter: ${title}`,
      `Author response: ${title}`,
      `Data from: ${title}`,
      `Supplementary material for ${title}`,
      `Supplemental data: ${title}`,
      `Supplementary Information: ${title}`,
    ];
    expect(notices.filter((notice) => !isNotice(notice))).toEqual([]);
    expect(isNotice(title, 'dataset') && isNotice(title, 'component') && isNotice(title, 'peer-review')).toBe(true);
    expect(['Review', 'Responses of trees to drought', 'Replying machines', 'Data fromage'].filter((t) => isNotice(t))).toEqual(
      [],
    );
    const erratum = w(`<i>Erratum</i> to: ${title}`, 'Okafor', 2016);
    expect(bestMatch(rec(title, 'Okafor', 2016), [erratum])).toBeUndefined();
  });

  it('matches a title against Crossref title and subtitle together', () => {
    const work = w('Nitrogen uptake', 'Okafor', 2016, { subtitle: ['tropical tree seedlings under drought'] });
    expect(bestMatch(rec('Nitrogen uptake: tropical tree seedlings under drought', 'Okafor', 2016), [work])?.work).toBe(work);
  });

  it('refuses a work without a title without throwing, and a one-letter title', () => {
    const untitled: CrossrefWork = { DOI: '10.1/untitled', author: [{ family: 'Okafor' }], issued: { 'date-parts': [[2016]] } };
    expect(() => bestMatch(rec(title, 'Okafor', 2016), [untitled])).not.toThrow();
    expect(bestMatch(rec(title, 'Okafor', 2016), [untitled])).toBeUndefined();
    expect(titleSimilarity('A', 'A')).toBe(0);
    expect(bestMatch(rec('A', 'Okafor', 2016), [w('A', 'Okafor', 2016)])).toBeUndefined();
  });

  it('compares venues nearly alike, numbers included, and a blank container names nothing', () => {
    const intro = (venue: string[]) => w('Introduction', 'Okafor', 2015, { 'container-title': venue });
    expect(bestMatch(rec('Introduction', 'Okafor', 2015, 'Tree Physiology'), [intro(['Tree physiology.'])])).toBeDefined();
    expect(bestMatch(rec('Introduction', 'Okafor', 2015, 'Nature'), [intro(['Nature Communications'])])).toBeUndefined();
    expect(bestMatch(rec('Introduction', 'Okafor', 2015, 'Tree Physiology'), [intro(['', 'Tree Physiology'])])).toBeDefined();
    expect(bestMatch(rec('Introduction', 'Okafor', 2015, 'Tree …'), [intro([''])])).toBeUndefined();
    expect(bestMatch(rec('Introduction', 'Okafor', 2015, 'Forest Studies 12'), [intro(['Forest Studies 13'])])).toBeUndefined();
    // A generic title a year away is another volume's.
    expect(bestMatch(rec('Introduction', 'Okafor', 2016, 'Tree Physiology'), [intro(['Tree Physiology'])])).toBeUndefined();
  });

  it('reads a notice however its words are spaced, and only at the start of a title', () => {
    const spaced = [
      `  Erratum: ${title}`,
      `<scp>Erratum</scp>: ${title}`,
      `Re : Erratum to ${title}`,
      `Re:Erratum to ${title}`,
      `Reply  to ${title}`,
      `Author reply: ${title}`,
      `Authors reply: ${title}`,
      `Authors'  reply: ${title}`,
      `Response : ${title}`,
      'Acknowledgements  to reviewers',
      'Acknowledgements to  the referees',
      'Acknowledgements to the  referees',
      `Peer  review report on ${title}`,
      `Review  of ${title}`,
      `Decision  letter on ${title}`,
      `Author response to ${title}`,
      `Author  response to ${title}`,
      `Data  from: ${title}`,
      `Data from : ${title}`,
      `Supplementary  material for ${title}`,
    ];
    expect(spaced.filter((notice) => !isNotice(notice))).toEqual([]);
    expect(
      ['Modelling the correction of survey errors', 'Trees that reply to drought', 'Counterparts of data from: sensors'].filter(
        (t) => isNotice(t),
      ),
    ).toEqual([]);
  });

  it('knows a generic title in the singular or the plural, and numbered', () => {
    expect(
      ['Review', 'Reviews', 'Letter', 'Letters', 'Abstract', 'Abstracts', 'Announcement', 'Announcements', 'Editorial 12'].filter(
        (t) => !isGenericTitle(t),
      ),
    ).toEqual([]);
    expect(['Reviewing forests', 'Editorial 12 on forests'].filter((t) => isGenericTitle(t))).toEqual([]);
  });

  it('reads the numbers of a title word by word: digits without leading zeros, no Roman number in a word that merely ends or starts like a marker', () => {
    expect(titleNumbers('Agent 007 and report 2015')).toEqual(['7', '2015']);
    expect(titleNumbers('Forest report, part 2 of 3', 4)).toEqual(['2']);
    expect(titleNumbers('The counterpart I saw and partners I know')).toEqual([]);
    expect(titleNumbers('Drought in the tropics')).toEqual([]);
    expect(titleNumbers('Type IX and type XIV collagen')).toEqual(['9', '14']);
  });

  it('compares a title cut with "…" at its end only, trailing spaces and all', () => {
    expect(titleSimilarity('Drought … and what the seedlings did', 'Drought in the tropics')).toBeLessThan(0.5);
    expect(titleSimilarity('Nitrogen uptake by tropical tree … ', title)).toBe(1);
  });

  it('compares the numbers before a cut inside a word: all of them, in order, then the start of the cut one', () => {
    const survey = w('Annual statistical report of the forest agency, part 20, for 2015', 'Okafor', 2015);
    expect(
      bestMatch(rec('Annual statistical report of the forest agency, part 20, for 20…', 'Okafor', 2015), [survey])?.work,
    ).toBe(survey);
    expect(
      bestMatch(rec('Annual statistical report of the forest agency, part 2, for 20…', 'Okafor', 2015), [survey]),
    ).toBeUndefined();
    const third = w('Drought and forest dieback in the tropics, part III', 'Okafor', 2014);
    expect(bestMatch(rec('Drought and forest dieback in the tropics, part II…', 'Okafor', 2014), [third])).toBeUndefined();
  });

  it('refuses a paper without an author a work whose author has no family name', () => {
    const nameless = w(title, 'Okafor', 2016, { author: [{ given: 'Ada' }] });
    expect(bestMatch(rec(title, null, 2016), [nameless])).toBeUndefined();
  });

  it('takes the most similar of several works that pass, and one work listed twice under one DOI', () => {
    const exact = w(title, 'Okafor', 2016, { DOI: '10.1/exact' });
    const close = w(`${title} conditions`, 'Okafor', 2016, { DOI: '10.1/close' });
    expect(titleSimilarity(title, close.title?.[0] ?? '')).toBeGreaterThanOrEqual(TITLE_SIMILARITY_THRESHOLD);
    expect(bestMatch(rec(title, 'Okafor', 2016), [close, exact])?.work.DOI).toBe('10.1/exact');
    const upper = { ...exact, DOI: '10.1/EXACT' };
    expect(bestMatch(rec(title, 'Okafor', 2016), [exact, upper])?.work.DOI).toBe('10.1/exact');
  });

  it('gives a paper on a data repository its dataset, never the article; a dataset on Zenodo or figshare may be taken, never for a journal paper', () => {
    const article = w(title, 'Okafor', 2016, { DOI: '10.1/article' });
    const dataset = w(title, 'Okafor', 2016, { DOI: '10.5061/dryad.1', type: 'dataset' });
    expect(bestMatch({ ...rec(title, 'Okafor', 2016), site: 'datadryad.org' }, [article, dataset])?.work.DOI).toBe(
      '10.5061/dryad.1',
    );
    expect(bestMatch({ ...rec(title, 'Okafor', 2016), site: 'datadryad.org' }, [article])).toBeUndefined();
    // A dataset whose DOI places it in no repository (a publisher's) is taken on any; Dryad's only on Dryad.
    const unplaced = { ...dataset, DOI: '10.1/dataset' };
    expect(bestMatch(rec(title, 'Okafor', 2016, 'PANGAEA'), [article, unplaced])?.work.DOI).toBe('10.1/dataset');
    expect(bestMatch({ ...rec(title, 'Okafor', 2016), site: 'zenodo.org' }, [unplaced])?.work.DOI).toBe('10.1/dataset');
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Figshare'), [unplaced])?.work.DOI).toBe('10.1/dataset');
    for (const shown of [rec(title, 'Okafor', 2016, 'PANGAEA'), { ...rec(title, 'Okafor', 2016), site: 'zenodo.org' }]) {
      expect(bestMatch(shown, [dataset])).toBeUndefined();
    }
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Tree Physiology'), [dataset])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2016), [dataset])).toBeUndefined();
  });

  it('reads a venue cut inside its one word, and a start cut whose shown end holds the number', () => {
    const chapter = w(title, 'Okafor', 2015, { type: 'book-chapter', 'container-title': ['Bioinformatics'] });
    expect(bestMatch(rec(title, 'Okafor', 2015, 'Bioinformati…'), [chapter])?.work).toBe(chapter);
    const conf = w(title, 'Okafor', 2015, {
      type: 'proceedings-article',
      'container-title': ['Proceedings of the Forest Computing Conference 2015'],
    });
    expect(bestMatch(rec(title, 'Okafor', 2015, '… Forest Computing Conference 2015'), [conf])?.work).toBe(conf);
    expect(bestMatch(rec(title, 'Okafor', 2015, '… Forest Computing Conference 2016'), [conf])).toBeUndefined();
  });

  it('reads "Discussions" as a preprint server only at the end of a venue', () => {
    const article = w(title, 'Okafor', 2016, { 'container-title': ['Discussions in Forest Ecology'] });
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Discussions in Forest Ecology'), [article])?.work).toBe(article);
    const uncontained = w(title, 'Okafor', 2016);
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Discussions in Forest Ecology'), [uncontained])?.work).toBe(uncontained);
    const preprint = w(title, 'Okafor', 2016, { 'container-title': ['Forest Science Discussion'] });
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Forest Science Discussion'), [preprint])?.work).toBe(preprint);
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Forest Science Discussion'), [w(title, 'Okafor', 2016)])).toBeUndefined();
  });

  it('takes a generic title without a venue from no work, not even one of a blank container', () => {
    expect(
      bestMatch(rec('Editorial', 'Okafor', 2015), [w('Editorial', 'Okafor', 2015, { 'container-title': [''] })]),
    ).toBeUndefined();
  });

  it('folds accents: "Saúco" is "Sauco"', () => {
    const work = { ...w('Bananas and plantains', 'Sauco', 2010), author: [{ given: 'V', family: 'Sauco' }] };
    expect(bestMatch(paper('Bananas and plantains', 'VG Saúco - 2010 - books.google.com'), [work])?.work).toBe(work);
    expect(normalizeText('Saúco Ñandú')).toBe('sauco nandu');
  });
});

describe('parseScholarSummary, the rest', () => {
  it('reads an en dash, a cut venue (kept cut), a cut author list (said cut), a family of two words, and the site', () => {
    expect(parseScholarSummary(' T ', 'G Van Rossum, FL Drake – Python reference manual, 1995 – Citeseer')).toEqual({
      title: 'T',
      authors: [
        { given: 'G', family: 'Van Rossum' },
        { given: 'FL', family: 'Drake' },
      ],
      year: 1995,
      venue: 'Python reference manual',
      site: 'Citeseer',
    });
    expect(parseScholarSummary('T', 'A Okafor, B Ode… - Proceedings of the 3rd …, 2015 - dl.acm.org')).toMatchObject({
      authors: [
        { given: 'A', family: 'Okafor' },
        { given: 'B', family: 'Ode' },
      ],
      authorsCut: true,
      year: 2015,
      venue: 'Proceedings of the 3rd …',
    });
    expect(
      parseScholarSummary('T', 'J Oh, V Chockalingam, H Lee - … conference on machine …, 2016 - proceedings.mlr.press'),
    ).toMatchObject({ venue: '… conference on machine …', year: 2016 });
    expect(parseScholarSummary('T', 'A Okafor - Ecology, 2015 - x')).not.toHaveProperty('authorsCut');
  });

  it('reads a name without initials, an organisation whole, a summary without venue or year, and no venue of digits', () => {
    expect(parseScholarSummary('T', 'Aristotle - 1998 - Oxford').authors).toEqual([{ given: '', family: 'Aristotle' }]);
    // The index writes every person as initials and a family name: several words without initials are an organisation.
    expect(parseScholarSummary('T', 'World Health Organization - 2019 - apps.who.int')).toMatchObject({
      authors: [{ given: '', family: 'World Health Organization', organisation: true }],
      year: 2019,
      venue: null,
    });
    expect(parseScholarSummary('T', 'Jane Q Public - Some Journal - Elsevier')).toMatchObject({
      authors: [{ given: '', family: 'Jane Q Public', organisation: true }],
      year: null,
      venue: 'Some Journal',
    });
    expect(parseScholarSummary('T', 'A Okafor - 12, 2015 - x')).toMatchObject({ year: 2015, venue: null });
    expect(parseScholarSummary('T', 'A Okafor - Ecology, 1499 - x')).toMatchObject({ year: null, venue: 'Ecology, 1499' });
    expect(parseScholarSummary('T', 'no separators here')).toMatchObject({ authors: [], year: null, venue: null });
    expect(parseScholarSummary('T', 'A Okafor - arxiv.org')).toMatchObject({
      authors: [{ given: 'A', family: 'Okafor' }],
      venue: null,
    });
    expect(parseScholarSummary('T', 'A Okafor - arxiv.org').site).toBeUndefined();
  });
});
