/**
 * The Crossref matcher's rules, each decided by a test through its public functions (bestMatch,
 * titleSimilarity, titleNumbers, isNotice): who counts as the first author, where a title or venue is cut,
 * which numbers are compared, how a venue names a container, which version a repository lists, the
 * threshold itself and the years. Works are built by hand in the shape Crossref records them.
 */
import { describe, expect, it } from 'vitest';
import {
  bestMatch,
  isNotice,
  TITLE_SIMILARITY_THRESHOLD,
  titleNumbers,
  titleSimilarity,
} from '../../../lib/citations/match/match.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { indexRecord as rec, titledWork as w } from '../../support/match-records.js';

const title = 'Nitrogen uptake by tropical tree seedlings under drought';

/** A chapter (or proceedings paper) of the given container: the index's venue has to name it. */
function inside(container: string, type = 'book-chapter'): CrossrefWork {
  return w(title, 'Okafor', 2015, { type, 'container-title': [container] });
}

/** What the matcher answers for the paper under that venue, with that one candidate. */
function named(venue: string, work: CrossrefWork): CrossrefWork | undefined {
  return bestMatch(rec(title, 'Okafor', 2015, venue), [work])?.work;
}

describe('the first author', () => {
  it('is looked for among all the authors and, for an edited book, its editors; a person without family or name is no one', () => {
    const coauthored = w(title, 'Okafor', 2016, { author: [{ given: 'Ada' }, { given: 'B', family: 'Okafor' }] });
    expect(bestMatch(rec(title, 'Okafor', 2016), [coauthored])?.work).toBe(coauthored);
    const edited = w(title, 'Okafor', 2016, { author: undefined, editor: [{ given: 'B', family: 'Okafor' }] });
    expect(bestMatch(rec(title, 'Okafor', 2016), [edited])?.work).toBe(edited);
    const nobody = w(title, 'Okafor', 2016, { author: undefined });
    expect(bestMatch(rec(title, 'Okafor', 2016), [nobody])).toBeUndefined();
    // Crossref files some people with the family name in `given` alone: only family and name are compared.
    const givenOnly = w(title, 'Okafor', 2016, { author: [{ given: 'Stryker' }] });
    expect(bestMatch(rec(title, 'Stryker', 2016), [givenOnly])).toBeUndefined();
    // A first author whose family name has no letter is no author, even beside a nameless person.
    expect(bestMatch(rec(title, '—', 2016), [givenOnly])).toBeUndefined();
    expect(bestMatch(rec(title, '', 2016), [givenOnly])).toBeUndefined();
    const organisation = w(title, 'Okafor', 2016, { author: [{ name: 'Forest Survey Group' }] });
    expect(bestMatch(rec(title, 'Group', 2016), [organisation])?.work).toBe(organisation);
  });
});

describe('notices', () => {
  it('knows a notice whose title starts with white space, in a wording that has no room for it', () => {
    expect(isNotice(` Reply to ${title}`)).toBe(true);
    expect(isNotice(`\nComment on ${title}`)).toBe(true);
    expect(isNotice(`<i> </i>Response to ${title}`)).toBe(true);
  });

  it('gives a paper on Zenodo its dataset, never a figure or supplement deposited with the same title', () => {
    const figure = w(title, 'Okafor', 2016, { DOI: '10.5281/zenodo.2', type: 'component' });
    const dataset = w(title, 'Okafor', 2016, { DOI: '10.5281/zenodo.1', type: 'dataset' });
    const onZenodo = { ...rec(title, 'Okafor', 2016), site: 'zenodo.org' };
    expect(bestMatch(onZenodo, [figure])).toBeUndefined();
    expect(bestMatch(onZenodo, [figure, dataset])?.work).toBe(dataset);
  });
});

describe('the numbers of a title', () => {
  it('finds none in an empty title, or one that is only a "…"', () => {
    expect(titleNumbers('')).toEqual([]);
    expect(titleNumbers('…')).toEqual([]);
    expect(titleNumbers(' — ')).toEqual([]);
  });

  it('reads an ellipsis inside a title as punctuation, not a cut: the numbers after the shown words still count', () => {
    const part2 = w('Grow... or die: tropical tree seedlings under drought II', 'Okafor', 2016);
    expect(bestMatch(rec('Grow... or die: tropical tree seedlings under drought', 'Okafor', 2016), [part2])).toBeUndefined();
    expect(bestMatch(rec('Grow... or die: tropical tree seedlings under drought II', 'Okafor', 2016), [part2])?.work).toBe(part2);
  });

  it('compares a title with an ellipsis inside it whole, with the whole other title', () => {
    const shown = 'Grow... or die: tropical tree seedlings under drought';
    const longer = 'Grow... or die: tropical tree seedlings under drought and heat in the lowland forests';
    expect(titleSimilarity(shown, longer)).toBeLessThan(TITLE_SIMILARITY_THRESHOLD);
    expect(titleSimilarity(`${shown} …`, longer)).toBe(1);
  });

  it('reads a title cut with "… " and trailing white space as cut: numbers past the shown words are not compared', () => {
    const report = w('The 2015 report on the forests of 2016', 'Okafor', 2016);
    expect(bestMatch(rec('The 2015 report on … ', 'Okafor', 2016), [report])?.work).toBe(report);
    expect(bestMatch(rec('The 2015 report on …', 'Okafor', 2016), [report])?.work).toBe(report);
    expect(bestMatch(rec('The 2014 report on … ', 'Okafor', 2016), [report])).toBeUndefined();
  });

  it('reads a number cut inside a word after its leading zeros: "001…" may begin "0012"', () => {
    const paper12 = w('Forest agency working paper 0012 on drought damage', 'Okafor', 2016);
    expect(bestMatch(rec('Forest agency working paper 001…', 'Okafor', 2016), [paper12])?.work).toBe(paper12);
    expect(bestMatch(rec('Forest agency working paper 002…', 'Okafor', 2016), [paper12])).toBeUndefined();
  });
});

describe('a venue and the container it names', () => {
  it('reads a venue cut at its end as the beginning of the container, never a run of words inside it', () => {
    const encyclopedia = inside('Encyclopedia of Bioinformatics and Computational Biology');
    expect(named('Encyclopedia…', encyclopedia)).toBe(encyclopedia);
    expect(named('Encyclopedia of …', encyclopedia)).toBe(encyclopedia);
    expect(named('Bioinformatics…', encyclopedia)).toBeUndefined();
    expect(named('Bioinformatics and Computational …', encyclopedia)).toBeUndefined();
  });

  it('compares a venue not cut with the whole container, not with its end', () => {
    const handbook = inside('Handbook of Forest Ecology');
    expect(named('Handbook of Forest Ecology', handbook)).toBe(handbook);
    expect(named('Forest Ecology', handbook)).toBeUndefined();
  });

  it('reads a venue cut at its start as the end of a longer container: "… of Forests" is not "Forests"', () => {
    expect(named('… of Forests', inside('Forests'))).toBeUndefined();
    const ecology = inside('Ecology of Forests');
    expect(named('… of Forests', ecology)).toBe(ecology);
  });

  it('takes names without a letter pair as alike only when they are the same: "… 2015" ends the 2015 proceedings', () => {
    const proceedings = inside('Forest Computing Conference 2015', 'proceedings-article');
    expect(named('… 2015', proceedings)).toBe(proceedings);
    expect(named('… 2016', proceedings)).toBeUndefined();
  });

  it('compares the letters of a venue without its numbers: shared numbers make no two names alike', () => {
    expect(titleSimilarity('Ecology 2015-2016', 'Geology 2015-2016')).toBeGreaterThanOrEqual(TITLE_SIMILARITY_THRESHOLD);
    expect(named('Ecology 2015-2016', inside('Geology 2015-2016'))).toBeUndefined();
    const ecology = inside('Ecology 2015-2016');
    expect(named('Ecology 2015-2016', ecology)).toBe(ecology);
  });

  it('reads a number cut with letters after it as whole: "the 2nd…" is not "the 22nd"', () => {
    const proceedings = inside('Proceedings of the 22nd Workshop on Forests', 'proceedings-article');
    expect(named('Proceedings of the 2nd…', proceedings)).toBeUndefined();
    expect(named('Proceedings of the 22nd…', proceedings)).toBe(proceedings);
    expect(named('Proceedings of the 2…', proceedings)).toBe(proceedings);
  });

  it('compares the name before the last " - " of a container, whatever the dashes before it', () => {
    const proceedings = inside("Forests - Ecology and Management - FEM '15", 'proceedings-article');
    expect(named('Forests - Ecology and Management', proceedings)).toBe(proceedings);
    expect(named('Forests', proceedings)).toBeUndefined();
  });

  it('reads a venue that is only "…" as naming no container, not even a blank one', () => {
    const editorial = (container: string) => w('Editorial', 'Okafor', 2015, { 'container-title': [container] });
    expect(bestMatch(rec('Editorial', 'Okafor', 2015, '…'), [editorial('Tree Physiology')])).toBeUndefined();
    expect(bestMatch(rec('Editorial', 'Okafor', 2015, '…'), [editorial('')])).toBeUndefined();
    expect(bestMatch(rec('Editorial', 'Okafor', 2015, 'Tree …'), [editorial('Tree Physiology')])?.work.DOI).toBe(
      editorial('Tree Physiology').DOI,
    );
  });

  it('knows a preprint record by any one of its container names', () => {
    const discussion = w(title, 'Okafor', 2016, {
      'container-title': ['Hydrology and Earth System Sciences Discussions', 'HESSD'],
    });
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Hydrology and Earth System Sciences'), [discussion])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 2016, 'Hydrology and Earth System Sciences Discussions'), [discussion])?.work).toBe(
      discussion,
    );
  });

  it('takes a generic title in a named venue from no work without a container', () => {
    expect(bestMatch(rec('Editorial', 'Okafor', 2015, 'Tree Physiology'), [w('Editorial', 'Okafor', 2015)])).toBeUndefined();
  });

  it('reads a venue and a site as two words: "PANGAEA" on pangaea.de is a data repository', () => {
    const article = w(title, 'Okafor', 2016, { DOI: '10.1/article' });
    const dataset = w(title, 'Okafor', 2016, { DOI: '10.1594/pangaea.1', type: 'dataset' });
    const record = { ...rec(title, 'Okafor', 2016, 'PANGAEA'), site: 'pangaea.de' };
    expect(bestMatch(record, [article, dataset])?.work).toBe(dataset);
    expect(bestMatch(record, [article])).toBeUndefined();
  });
});

describe('the threshold', () => {
  it('takes a title and a venue exactly at the threshold (0.85), and refuses just below it', () => {
    expect(titleSimilarity('Drought and tree growth', 'Droughts and trees growth')).toBe(TITLE_SIMILARITY_THRESHOLD);
    const plural = w('Droughts and trees growth', 'Okafor', 2016);
    expect(bestMatch(rec('Drought and tree growth', 'Okafor', 2016), [plural])?.work).toBe(plural);
    const chapter = inside('Droughts and trees growth');
    expect(named('Drought and tree growth', chapter)).toBe(chapter);
    expect(titleSimilarity('Drought and tree growth', 'Droughts ands trees growth')).toBeLessThan(TITLE_SIMILARITY_THRESHOLD);
    expect(bestMatch(rec('Drought and tree growth', 'Okafor', 2016), [w('Droughts ands trees growth', 'Okafor', 2016)])).toBe(
      undefined,
    );
    expect(named('Drought and tree growth', inside('Droughts ands trees growth'))).toBeUndefined();
  });
});

describe('the years', () => {
  it('reads an unknown year as no year, not as year 0: it is within one of no work, however early', () => {
    expect(bestMatch(rec(title, 'Okafor', null), [w(title, 'Okafor', 0)])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', null), [w(title, 'Okafor', 1)])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 1), [w(title, 'Okafor', null)])).toBeUndefined();
    expect(bestMatch(rec(title, 'Okafor', 1), [w(title, 'Okafor', 1)])?.work.DOI).toBe(w(title, 'Okafor', 1).DOI);
  });
});

describe('a paper that is a notice', () => {
  it('takes only a notice, never the article whose title it repeats', () => {
    const article = w(title, 'Okafor', 2016);
    for (const kind of ['Correction to: ', 'Erratum: ', 'Retraction: ', 'Reply to ', 'Comment on ']) {
      expect(bestMatch(rec(`${kind}${title}`, 'Okafor', 2016), [article]), kind).toBeUndefined();
    }
    const correction = w(`Correction to: ${title}`, 'Okafor', 2016);
    expect(bestMatch(rec(`Correction to: ${title}`, 'Okafor', 2016), [article, correction])?.work).toBe(correction);
  });
});
