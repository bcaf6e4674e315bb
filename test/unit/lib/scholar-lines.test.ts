/**
 * The index's summary lines through the parser (model/scholar.ts) into its records and their citations
 * (model/index-record.ts, render/), and into the matcher (match/match.ts). The recorded lines
 * (test/fixtures/scholar/summary-lines.json: SerpApi answers as recorded) hold what the index cuts: author
 * lists ("D Mankowitz…", "PLP Brand…") and venues, at the end ("Proceedings of the …", "European …") and
 * at the start ("… conference on machine …"). A cut author list must never be printed as complete; an
 * organisation stays one name; a proceedings paper and a chapter whose venue the index cut still get
 * their DOI. For the last two no recorded index line of a paper the recorded Crossref works hold was
 * found: their lines are written in the index's form, with the cuts the recorded lines show (the
 * proceedings one is the line the outside audit quotes in issue form, "R Canu - Proceedings of the 2015
 * IEEE/ACM …, 2015"), against the recorded Crossref works (test/fixtures/crossref/reference-strings.json).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderExports } from '../../../lib/citations/exports/exports.js';
import { bestMatch } from '../../../lib/citations/match/match.js';
import { AUTHORS_CUT } from '../../../lib/citations/model/csl.js';
import { indexRecordOf } from '../../../lib/citations/model/index-record.js';
import { parseScholarSummary } from '../../../lib/citations/model/scholar.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { type CitationRenderer, citationRenderer } from '../../../lib/citations/render/render.js';
import { renderStyles } from '../../../lib/citations/render/style-engines.js';

const { lines } = JSON.parse(readFileSync(new URL('../../fixtures/scholar/summary-lines.json', import.meta.url), 'utf8')) as {
  lines: { title: string; summary: string; source: string }[];
};
const pool = JSON.parse(readFileSync(new URL('../../fixtures/crossref/reference-strings.json', import.meta.url), 'utf8')) as {
  works: Record<string, { record: CrossrefWork }>;
};
const recorded = (doi: string) => {
  const work = pool.works[doi]?.record;
  if (!work) throw new Error(`no recorded work ${doi}`);
  return work;
};

let renderer: CitationRenderer;
beforeAll(async () => {
  renderer = await citationRenderer();
}, 120_000);

/** The index record of a line and its citations in the five formats and three more styles. */
async function cite(title: string, summary: string, link: string | null = null) {
  const scholar = parseScholarSummary(title, summary);
  const record = indexRecordOf('line', scholar, { summary, link, profileAuthors: [], kind: null });
  const [styled] = await renderStyles([record.csl], ['nature', 'ieee', 'chicago-author-date']);
  return { scholar, record, citations: { ...renderer.render(record.csl), ...styled } as Record<string, string> };
}

describe('a cut author list', () => {
  const cut = lines.filter((line) => /…\s+-\s/.test(line.summary));

  it('is in the recorded lines, and the parser says so', () => {
    expect(cut.map((line) => line.summary.split(' - ')[0])).toEqual([
      'C Tessler, S Givony, T Zahavy, D Mankowitz…',
      'MW Pijnenburg, E Baraldi, PLP Brand…',
    ]);
    for (const line of cut) expect(parseScholarSummary(line.title, line.summary).authorsCut).toBe(true);
    for (const line of lines.filter((l) => !cut.includes(l)))
      expect(parseScholarSummary(line.title, line.summary)).not.toHaveProperty('authorsCut');
  });

  it.each(cut.map((line) => [line.summary, line] as const))(
    '%s is never printed as complete, in any style',
    async (_summary, line) => {
      const { scholar, record, citations } = await cite(line.title, line.summary);
      expect(record.gaps).toContain('authors truncated');
      expect(record.csl[AUTHORS_CUT]).toBe(true);
      const last = scholar.authors.at(-1)?.family ?? '';
      expect(Object.keys(citations)).toHaveLength(8);
      for (const [style, text] of Object.entries(citations)) {
        // The style's "et al." says there are more; no "&" or "and" closes the list on the last author shown.
        expect(text, style).toMatch(/\bet al\./);
        expect(text, style).not.toMatch(new RegExp(`(?:&|\\band)\\s+(?:\\p{Lu}\\.\\s?)*${last}\\b`, 'u'));
        expect(text, style).not.toContain('\uE000');
      }
    },
  );

  it('ends the list in BibTeX with "and others" (export test: exports.test.ts)', () => {
    const scholar = parseScholarSummary('T', cut[0]?.summary ?? '');
    expect(scholar.authors.map((a) => a.family)).toEqual(['Tessler', 'Givony', 'Zahavy', 'Mankowitz']);
  });

  it('a list the index shows whole is printed whole', async () => {
    const line = lines.find((l) => l.summary.startsWith('GJ Rodrigo')) as (typeof lines)[number];
    const { citations } = await cite(line.title, line.summary);
    expect(citations.APA).toMatch(/^Rodrigo, G\. J\., & Castro-Rodriguez, J\. A\. \(2005\)/);
    expect(Object.values(citations).join(' ')).not.toContain('et al.');
  });
});

describe('an organisation as author', () => {
  it('stays one literal name, never a person "Organization, W. H."', async () => {
    // As the audit quotes the index's line for a WHO report (no recording of one was found).
    const { scholar, record, citations } = await cite(
      'Global tuberculosis report 2019',
      'World Health Organization - 2019 - apps.who.int',
    );
    expect(scholar.authors).toEqual([{ given: '', family: 'World Health Organization', organisation: true }]);
    expect(record.csl.author).toEqual([{ literal: 'World Health Organization' }]);
    for (const [style, text] of Object.entries(citations)) {
      expect(text, style).toContain('World Health Organization');
      expect(text, style).not.toMatch(/Organization, W|W\. ?H\. Organization/);
    }
  });

  // Constructed in the index's form from the names the outside audit found printed as people ("Census
  // Bureau, U. S.", "2019 Risk Factors Collaborators, G. B. D."): an acronym where a person's initials stand.
  it.each([
    [
      'Income in the United States: 2019',
      'US Census Bureau - 2020 - census.gov',
      'US Census Bureau',
      /Census Bureau, U|U\. ?S\./,
      'https://www.census.gov/library/publications/2020/demo/p60-270.html',
    ],
    [
      'Global burden of 87 risk factors in 204 countries and territories, 1990–2019',
      'GBD 2019 Risk Factors Collaborators - The Lancet, 2020 - thelancet.com',
      'GBD 2019 Risk Factors Collaborators',
      /Collaborators, G|G\. ?B\. ?D\./,
      'https://www.thelancet.com/journals/lancet/article/PIIS0140-6736(20)30752-2/fulltext',
    ],
  ] as const)(
    '%s: an acronym before a body’s name is no initials, in any style or export',
    async (title, summary, name, asPerson, link) => {
      const { scholar, record, citations } = await cite(title, summary, link);
      expect(scholar.authors).toEqual([{ given: '', family: name, organisation: true }]);
      expect(record.csl.author).toEqual([{ literal: name }]);
      expect(Object.keys(citations)).toHaveLength(8);
      for (const [style, text] of Object.entries(citations)) {
        expect(text, style).toContain(name);
        expect(text, style).not.toMatch(asPerson);
      }
      const { bibtex, ris } = await renderExports(record.csl, ['bibtex', 'ris']);
      expect(bibtex).toContain(`author = {{${name}}}`);
      expect(ris).toContain(`AU  - ${name},`);
    },
  );
});

describe('a venue the index cut', () => {
  it('keeps its cut through the parser, at the end and at the start, and is printed as cut', async () => {
    const byStart = (start: string) => lines.find((l) => l.summary.startsWith(start)) as (typeof lines)[number];
    expect(parseScholarSummary('T', byStart('C Tessler').summary).venue).toBe('Proceedings of the …');
    expect(parseScholarSummary('T', byStart('J Oh').summary).venue).toBe('… conference on machine …');
    expect(parseScholarSummary('T', byStart('MW Pijnenburg').summary).venue).toBe('European …');
    const { record, citations } = await cite(byStart('MW Pijnenburg').title, byStart('MW Pijnenburg').summary);
    expect(record.gaps).toContain('venue truncated');
    for (const [style, text] of Object.entries(citations)) expect(text, style).toContain('European …');
  });

  it("gives a proceedings paper its DOI through the parser, though the index cut the proceedings' name", () => {
    const asonam = recorded('10.1145/2808797.2808866');
    const sibling = recorded('10.1109/icdmw.2016.0019');
    const scholar = parseScholarSummary(
      asonam.title?.[0] ?? '',
      'M Canu, M Detyniecki, MJ Lesot… - Proceedings of the 2015 IEEE/ACM …, 2015 - dl.acm.org',
    );
    expect(bestMatch(scholar, [sibling, asonam])?.work.DOI).toBe('10.1145/2808797.2808866');
    // As the audit quotes the line: one author shown, no site.
    expect(
      bestMatch(parseScholarSummary(asonam.title?.[0] ?? '', 'R Canu - Proceedings of the 2015 IEEE/ACM …, 2015'), [asonam])?.work
        .DOI,
    ).toBe('10.1145/2808797.2808866');
    // The cut is what lets it match: the same words read as a whole name are not the proceedings' name.
    expect(bestMatch({ ...scholar, venue: 'Proceedings of the 2015 IEEE/ACM' }, [asonam])).toBeUndefined();
    // And a cut name is still compared: another year's proceedings are not these.
    expect(bestMatch({ ...scholar, venue: 'Proceedings of the 2016 IEEE/ACM …' }, [asonam])).toBeUndefined();
  });

  it("gives a chapter its DOI through the parser, its book's name cut at the end or at the start", () => {
    const chapter = recorded('10.1007/978-3-319-08795-5_33');
    const title = chapter.title?.[0] ?? '';
    const cutEnd = parseScholarSummary(
      title,
      "AR d'Allonnes, MJ Lesot - Information Processing and Management of …, 2014 - Springer",
    );
    expect(bestMatch(cutEnd, [chapter])?.work.DOI).toBe('10.1007/978-3-319-08795-5_33');
    const cutStart = parseScholarSummary(
      title,
      "AR d'Allonnes, MJ Lesot - … Management of Uncertainty in Knowledge-Based Systems, 2014 - Springer",
    );
    expect(bestMatch(cutStart, [chapter])?.work.DOI).toBe('10.1007/978-3-319-08795-5_33');
    const cutBoth = parseScholarSummary(title, "AR d'Allonnes, MJ Lesot - … Management of Uncertainty in …, 2014 - Springer");
    expect(bestMatch(cutBoth, [chapter])?.work.DOI).toBe('10.1007/978-3-319-08795-5_33');
    // A cut name of another book is not this book.
    const other = parseScholarSummary(title, "AR d'Allonnes, MJ Lesot - Information Retrieval and Knowledge …, 2014 - Springer");
    expect(bestMatch(other, [chapter])).toBeUndefined();
    expect(
      bestMatch(
        parseScholarSummary(title, "AR d'Allonnes, MJ Lesot - … Advances in Intelligent Systems and Computing, 2014 - Springer"),
        [chapter],
      ),
    ).toBeUndefined();
  });
});
