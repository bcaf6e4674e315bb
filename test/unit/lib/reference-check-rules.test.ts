/**
 * The reference check's rules (lib/citations/match/reference-check.ts), each decided by a case only it
 * decides: a reference read against its record, as free text in the common styles and as an entry's fields,
 * and the verdict's evidence each rule gives (its name, field and severity, from the table the citation
 * guide prints). The measurement on a labelled set is test/integration/cite-check-labelled.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECK_RULES,
  type CheckIssue,
  compareWithRecord,
  describes,
  namesAuthors,
  recordIssues,
  statesOtherTitle,
  updatesOf,
} from '../../../lib/citations/match/reference-check.js';
import type { CitedFields, CitedReference } from '../../../lib/citations/model/cited.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { ISSUE_FIELDS, ISSUE_SEVERITIES } from '../../../lib/contract/cite-check.js';
import { readDocument } from '../../support/docs-blocks.js';
import { SHEA, SHEA_TITLE, sheaWork } from '../../support/match-records.js';

/** The Shea article with both its authors, as Crossref records it. */
const shea: CrossrefWork = {
  ...sheaWork,
  author: [
    { given: 'M. J.', family: 'Shea' },
    { given: 'R. N.', family: 'Compton' },
  ],
  'short-container-title': ['Phys. Rev. B'],
};

const text = (reference: string): CitedReference => ({ format: 'text', text: reference });
const entry = (fields: CitedFields): CitedReference => ({ format: 'bibtex', text: '', fields });

/** The issues found for the reference against the work, as [rule, cited, recorded]; undefined when it does not describe it. */
function found(
  reference: CitedReference | string,
  work: CrossrefWork = shea,
  currentYear = 2026,
): [string, string | null, string | null][] | undefined {
  const cited = typeof reference === 'string' ? text(reference) : reference;
  const identified = describes(cited, work);
  return identified && compareWithRecord(identified, { currentYear }).map((one) => [one.rule, one.cited, one.recorded]);
}

const rules = (reference: CitedReference | string, work: CrossrefWork = shea) => found(reference, work)?.map(([rule]) => rule);

describe('the rule table', () => {
  it('names each rule once, with a field and a severity of the contract', () => {
    expect(new Set(CHECK_RULES.map((rule) => rule.rule)).size).toBe(CHECK_RULES.length);
    for (const rule of CHECK_RULES) {
      expect(ISSUE_FIELDS).toContain(rule.field);
      expect(ISSUE_SEVERITIES).toContain(rule.severity);
    }
  });

  it('is the citation guide’s table, rule by rule, with its field, severity and what it finds', () => {
    const rows = CHECK_RULES.map((rule) => `| \`${rule.rule}\` | ${rule.field} | ${rule.severity} | ${rule.finds} |`);
    expect(readDocument('docs/citations.md')).toContain(
      ['| Rule | Field | Severity | Finds |', '| --- | --- | --- | --- |', ...rows].join('\n'),
    );
  });

  it('gives every issue its rule’s field and severity', () => {
    const identified = describes(text(SHEA.replace('1993', '1995')), shea);
    const [issue] = compareWithRecord(identified as NonNullable<typeof identified>, { currentYear: 2026 }) as CheckIssue[];
    expect(issue).toMatchObject({ rule: 'year_differs', field: 'year', severity: 'error', cited: '1995', recorded: '1993' });
  });
});

describe('a reference that agrees with its record', () => {
  it.each([
    ['APA', SHEA],
    [
      'Vancouver',
      'Shea MJ, Compton RN. Surface-plasmon ejection of Ag+ ions from laser irradiation of a roughened silver surface. Phys Rev B. 1993;47(15):9967–70.',
    ],
    [
      'MLA',
      'Shea, M. J., and R. N. Compton. “Surface-Plasmon Ejection of Ag+ Ions from Laser Irradiation of a Roughened Silver Surface.” Physical Review B, vol. 47, no. 15, 1993, pp. 9967–70.',
    ],
    [
      'Chicago',
      'Shea, M. J., and R. N. Compton. “Surface-Plasmon Ejection of Ag+ Ions from Laser Irradiation of a Roughened Silver Surface.” Physical Review B 47, no. 15 (1993): 9967–70.',
    ],
    [
      'Harvard',
      'Shea, M.J. and Compton, R.N. (1993) ‘Surface-plasmon ejection of Ag+ ions from laser irradiation of a roughened silver surface’, Physical Review B, 47(15), pp. 9967–9970. Available at: https://doi.org/10.1103/PhysRevB.47.9967.',
    ],
  ])('in %s has no issue', (_style, reference) => {
    expect(found(reference)).toEqual([]);
  });

  it('as an entry’s fields has no issue', () => {
    expect(
      found(
        entry({
          title: SHEA_TITLE,
          authors: [
            { family: 'Shea', given: 'M. J.' },
            { family: 'Compton', given: 'R. N.' },
          ],
          year: 1993,
          venue: 'Physical Review B',
          volume: '47',
          issue: '15',
          pages: '9967--9970',
          type: 'article-journal',
        }),
      ),
    ).toEqual([]);
  });
});

describe('title', () => {
  it('title_changed: a changed word is an error', () => {
    expect(rules(SHEA.replace('roughened silver', 'roughened gold'))).toEqual(['title_changed']);
  });

  it('title_changed: a number of the title changed is another work, and the reference is not read against it', () => {
    const part = { ...shea, title: [`${SHEA_TITLE} II`] };
    expect(describes(text(SHEA.replace('silver surface', 'silver surface III')), part)).toBeUndefined();
  });

  it('title_spelling: a letter of a long word, or a small word, is spelling (info)', () => {
    expect(rules(SHEA.replace('irradiation', 'irradiaton'))).toEqual(['title_spelling']);
    expect(rules(SHEA.replace('of a roughened', 'of the roughened'))).toEqual(['title_spelling']);
  });

  it('case, punctuation and a cut subtitle are no difference', () => {
    expect(rules(SHEA.replace(SHEA_TITLE, SHEA_TITLE.toUpperCase()))).toEqual([]);
    const subtitled = { ...shea, title: [SHEA_TITLE], subtitle: ['A study of the threshold'] };
    expect(rules(SHEA, subtitled)).toEqual([]);
  });
});

describe('authors', () => {
  it('first_author: the record’s authors swapped is an error on the first author', () => {
    expect(rules(SHEA.replace('Shea, M. J., & Compton, R. N.', 'Compton, R. N., & Shea, M. J.'))).toEqual(['first_author']);
  });

  it('first_author and authors_unknown: an invented first author', () => {
    expect(rules(SHEA.replace('Shea, M. J., & Compton, R. N.', 'Okafor, T. A., & Compton, R. N.'))).toEqual([
      'first_author',
      'authors_unknown',
    ]);
  });

  it('authors_unknown: a person not among the record’s authors, besides them', () => {
    expect(rules(SHEA.replace('Compton, R. N.', 'Compton, R. N., & Lindqvist, H.'))).toEqual(['authors_unknown']);
  });

  it('authors_unknown names each person the record does not, one by one', () => {
    const cited = text(SHEA.replace('Compton, R. N.', 'Compton, R. N., Lindqvist, H., & Okafor, T. A.'));
    const identified = describes(cited, shea);
    expect(identified).toBeDefined();
    const messages = identified && compareWithRecord(identified, { currentYear: 2026 }).map((one) => one.message);
    expect(messages).toEqual(['The reference names “lindqvist”, “okafor”, who are none of the record’s authors.']);
  });

  it('authors_missing: authors left out without "et al." is a warning; with it, nothing', () => {
    expect(rules(SHEA.replace('Shea, M. J., & Compton, R. N.', 'Shea, M. J.'))).toEqual(['authors_missing']);
    expect(rules(SHEA.replace('Shea, M. J., & Compton, R. N.', 'Shea, M. J., et al.'))).toEqual([]);
  });

  it('authors_more: more authors than a record that gives only its first one is info, not invented authors', () => {
    const alone = { ...shea, author: (shea.author ?? []).slice(0, 1) };
    expect(rules(SHEA, alone)).toEqual(['authors_more']);
    // Without the record's one author first, the others are unknown to it.
    expect(rules(SHEA.replace('Shea, M. J., & Compton, R. N.', 'Compton, R. N., & Shea, M. J.'), alone)).toEqual([
      'first_author',
      'authors_unknown',
    ]);
  });

  it('authors_order: the first author in place and the others in another order is a warning', () => {
    const three = { ...shea, author: [...(shea.author ?? []), { given: 'K.', family: 'Lindqvist' }] };
    const reordered = SHEA.replace('Shea, M. J., & Compton, R. N.', 'Shea, M. J., Lindqvist, K., & Compton, R. N.');
    expect(rules(reordered, three)).toEqual(['authors_order']);
  });

  it('reads full given names the record gives as initials, initials run together, and particles', () => {
    expect(rules(SHEA.replace('Shea, M. J., & Compton, R. N.', 'Shea, Michael J., and Robert N. Compton'))).toEqual([]);
    const particle = { ...shea, author: [{ given: 'J.', family: 'van der Berg' }, ...(shea.author ?? []).slice(1)] };
    expect(rules(SHEA.replace('Shea, M. J.', 'van der Berg, J.'), particle)).toEqual([]);
  });
});

describe('year', () => {
  it('year_future: a year after this one is an error', () => {
    expect(found(SHEA.replace('1993', '2031'), shea, 2026)?.[0]).toEqual(['year_future', '2031', '1993']);
  });

  it('year_differs: off by one where print and online agree, or by two, is an error', () => {
    expect(rules(SHEA.replace('(1993)', '(1994)'))).toEqual(['year_differs']);
    expect(rules(SHEA.replace('(1993)', '(1995)'))).toEqual(['year_differs']);
  });

  it('year_print_online: off by one to the record’s print or online year is info', () => {
    const printed = {
      ...shea,
      'published-print': { 'date-parts': [[1994, 1]] },
      'published-online': { 'date-parts': [[1993, 12]] },
    };
    expect(rules(SHEA.replace('(1993)', '(1994)'), printed)).toEqual(['year_print_online']);
  });
});

describe('venue', () => {
  it('venue_differs: another journal is a warning', () => {
    expect(found(SHEA.replace('Physical Review B', 'Nature Physics'))).toEqual([
      ['venue_differs', 'Nature Physics', 'Physical Review B'],
    ]);
  });

  it('takes a journal abbreviated word by word, by its short title, or by its initials', () => {
    expect(rules(SHEA.replace('Physical Review B', 'Phys. Rev. B'))).toEqual([]);
    expect(rules(SHEA.replace('Physical Review B', 'Phys Rev B'))).toEqual([]);
    const pnas = { ...shea, 'container-title': ['Proceedings of the National Academy of Sciences'], 'short-container-title': [] };
    expect(rules(SHEA.replace('Physical Review B', 'Proc. Natl. Acad. Sci.'), pnas)).toEqual([]);
    expect(rules(SHEA.replace('Physical Review B', 'PNAS'), pnas)).toEqual([]);
  });

  it('preprint_as_published: a preprint cited as published in a journal is a warning', () => {
    const preprint = {
      ...shea,
      type: 'posted-content',
      'container-title': [],
      'short-container-title': [],
      volume: undefined,
      issue: undefined,
      page: undefined,
    };
    expect(rules(SHEA, preprint)).toEqual(['preprint_as_published']);
    expect(rules(SHEA.replace('Physical Review B, 47(15), 9967–9970.', 'arXiv preprint.'), preprint)).toEqual([]);
  });

  it('published_version: a preprint server cited for a work published since is info', () => {
    expect(rules(SHEA.replace('Physical Review B, 47(15), 9967–9970.', 'arXiv preprint.'))).toEqual(['published_version']);
  });
});

describe('volume, issue, pages', () => {
  it('volume_differs, issue_differs: warnings', () => {
    expect(found(SHEA.replace('47(15)', '48(15)'))).toEqual([['volume_differs', '48', '47']]);
    expect(found(SHEA.replace('47(15)', '47(16)'))).toEqual([['issue_differs', '16', '15']]);
  });

  it('pages_differ: a warning; either end agreeing, or an abbreviated end, is no difference', () => {
    expect(found(SHEA.replace('9967–9970', '1201–1204'))).toEqual([['pages_differ', '1201–1204', '9967-9970']]);
    expect(rules(SHEA.replace('9967–9970', '9967–70'))).toEqual([]);
    expect(rules(SHEA.replace('9967–9970', '9966–9970'))).toEqual([]);
  });
});

describe('type', () => {
  it('type_differs: an entry of another kind than its record is info', () => {
    const fields: CitedFields = {
      title: SHEA_TITLE,
      authors: [
        { family: 'Shea', given: 'M. J.' },
        { family: 'Compton', given: 'R. N.' },
      ],
      year: 1993,
      type: 'paper-conference',
    };
    expect(rules(entry(fields))).toEqual(['type_differs']);
  });
});

describe('notices about the record', () => {
  const update = (type: string, source = 'publisher') => ({
    DOI: `10.1/${type}`,
    type,
    source,
    updated: { 'date-parts': [[2010, 2, 6]] },
  });

  it('retracted: a retraction or withdrawal in the update metadata, or the title’s own mark', () => {
    expect(recordIssues({ ...shea, 'updated-by': [update('retraction', 'retraction-watch')] }).map((one) => one.rule)).toEqual([
      'retracted',
    ]);
    expect(recordIssues({ ...shea, 'updated-by': [update('withdrawal')] }).map((one) => one.rule)).toEqual(['retracted']);
    expect(recordIssues({ ...shea, title: [`RETRACTED: ${SHEA_TITLE}`] }).map((one) => one.rule)).toEqual(['retracted']);
    // The mark is no part of the title a reference cites.
    expect(rules(SHEA, { ...shea, title: [`RETRACTED: ${SHEA_TITLE}`] })).toEqual(['retracted']);
  });

  it('correction and expression_of_concern: warnings about the record', () => {
    expect(recordIssues({ ...shea, 'updated-by': [update('correction'), update('erratum')] }).map((one) => one.rule)).toEqual([
      'correction',
    ]);
    expect(recordIssues({ ...shea, 'updated-by': [update('expression_of_concern')] }).map((one) => one.rule)).toEqual([
      'expression_of_concern',
    ]);
  });

  it('lists each notice once, with its type, DOI, date and source', () => {
    const twice = [update('retraction', 'retraction-watch'), update('retraction', 'retraction-watch'), update('correction')];
    expect(updatesOf({ ...shea, 'updated-by': twice })).toEqual([
      { type: 'retraction', doi: '10.1/retraction', date: '2010-02-06', source: 'retraction-watch' },
      { type: 'correction', doi: '10.1/correction', date: '2010-02-06', source: 'publisher' },
    ]);
  });
});

describe('which record a reference describes', () => {
  it('not a record of another title', () => {
    expect(describes(text('Shea, M. J. (1993). A study of something else entirely. Physical Review B.'), shea)).toBeUndefined();
  });

  it('a notice only for a reference to a notice, and an article only for a reference to an article', () => {
    const erratum = { ...shea, DOI: '10.1/erratum', title: [`Erratum: ${SHEA_TITLE}`] };
    expect(describes(text(SHEA), erratum)).toBeUndefined();
    expect(describes(text(SHEA.replace('Surface-plasmon', 'Erratum: Surface-plasmon')), shea)).toBeUndefined();
    expect(describes(text(SHEA.replace('Surface-plasmon', 'Erratum: Surface-plasmon')), erratum)).toBeDefined();
    const notice = { ...shea, DOI: '10.1/n', 'update-to': [{ DOI: shea.DOI, type: 'correction' }] };
    expect(describes(text(SHEA), notice)).toBeUndefined();
  });

  it('a title with one word changed is read, with the first author and the year', () => {
    expect(describes(text(SHEA.replace('roughened silver', 'roughened gold')), shea)).toBeDefined();
  });

  it('names the authors of a DOI’s record, and states a title of its own, or not', () => {
    expect(namesAuthors(text('Shea MJ et al. doi:10.1103/PhysRevB.47.9967'), shea)).toBe(true);
    expect(namesAuthors(text('Okafor A. doi:10.1103/PhysRevB.47.9967'), shea)).toBe(false);
    expect(statesOtherTitle(text('Shea MJ, Compton RN. Phys Rev B 1993. doi:10.1103/PhysRevB.47.9967'), shea)).toBe(false);
    expect(statesOtherTitle(text('Okafor A. Tropical seedlings under drought. Tree Physiol 2016.'), shea)).toBe(true);
  });
});
