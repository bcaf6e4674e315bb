/**
 * Each kind of work's BibTeX entry and RIS record compared whole, so that every rule of the exports
 * (lib/citations/exports/exports.ts) decides something a test sees: the entry type, where the container
 * goes (`journal`, `booktitle`, `series`, `type`, `howpublished`), what moves or is left out (an article's
 * publisher and genre, a `@misc`'s publisher, a URL copied to `howpublished`), the month alone as its macro,
 * RIS's type, container tags and zero-padded dates, and personal names without the comma that keeps an
 * organisation whole. Then the rules a whole entry does not show: rich text written in every way CSL
 * allows, names left empty, cut author lists without authors, identifiers never read as rich text, URLs
 * beyond the Basic Multilingual Plane, UTF-8 output, and what a failed load or render says.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderExports } from '../../../lib/citations/exports/exports.js';
import { AUTHORS_CUT, type CslItem } from '../../../lib/citations/model/csl.js';

/** Each record: Jane Doe's "A title", keyed doe2020title, with what the kind of work adds. */
const ENTRIES: [name: string, extra: Record<string, unknown> & { type: string }, bibtex: string, ris: string][] = [
  [
    'a journal article with a genre, a note and its publisher',
    {
      type: 'article-journal',
      'container-title': 'Journal of Things',
      publisher: 'Wiley',
      genre: 'Review',
      note: 'Open access',
      volume: '6',
      issue: '3',
      page: '255-264',
      issued: { 'date-parts': [[2013, 12, 5]] },
    },
    '@article{doe2020title,\n\tauthor = {Doe, Jane},\n\tjournal = {Journal of Things},\n\tnumber = {3},\n\tyear = {2013},\n\tmonth = dec,\n\tnote = {Open access. Review},\n\tpages = {255--264},\n\ttitle = {A title},\n\tvolume = {6},\n}',
    'TY  - JOUR\nAU  - Doe, Jane\nDA  - 2013/12/05/\nPY  - 2013\nID  - doe2020title\nIS  - 3\nM3  - Review\nN1  - Open access\nSP  - 255-264\nT2  - Journal of Things\nTI  - A title\nVL  - 6\nJF  - Journal of Things\nER  - ',
  ],
  [
    'a review citation-js gives no journal',
    { type: 'review', 'container-title': 'Reviews in Things', issued: { 'date-parts': [[2013]] } },
    '@article{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2013},\n\ttitle = {A title},\n\tjournal = {Reviews in Things},\n}',
    'TY  - JOUR\nAU  - Doe, Jane\nDA  - 2013///\nPY  - 2013\nID  - doe2020title\nT2  - Reviews in Things\nTI  - A title\nJF  - Reviews in Things\nER  - ',
  ],
  [
    'a preprint on a server',
    { type: 'article', genre: 'Preprint', publisher: 'arXiv', issued: { 'date-parts': [[2022, 1, 17]] } },
    '@misc{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2022},\n\tmonth = jan,\n\ttitle = {A title},\n\ttype = {Preprint},\n\thowpublished = {arXiv},\n}',
    'TY  - UNPB\nAU  - Doe, Jane\nDA  - 2022/01/17/\nPY  - 2022\nID  - doe2020title\nM3  - Preprint\nTI  - A title\nPB  - arXiv\nER  - ',
  ],
  [
    'an article in no periodical, without a publisher',
    { type: 'article', issued: { 'date-parts': [[2022]] } },
    '@misc{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2022},\n\ttitle = {A title},\n}',
    'TY  - GEN\nAU  - Doe, Jane\nDA  - 2022///\nPY  - 2022\nID  - doe2020title\nTI  - A title\nER  - ',
  ],
  [
    'a book in a series given as its container',
    { type: 'book', 'container-title': 'Lecture Notes', publisher: 'Springer', issued: { 'date-parts': [[2019, 1]] } },
    '@book{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2019},\n\tmonth = jan,\n\tpublisher = {Springer},\n\ttitle = {A title},\n\tseries = {Lecture Notes},\n}',
    'TY  - BOOK\nAU  - Doe, Jane\nDA  - 2019/01//\nPY  - 2019\nID  - doe2020title\nPB  - Springer\nTI  - A title\nT2  - Lecture Notes\nER  - ',
  ],
  [
    'a book with a series and an older container',
    {
      type: 'book',
      'collection-title': 'Methods',
      'container-title': 'Old Series',
      publisher: 'Springer',
      issued: { 'date-parts': [[2019]] },
    },
    '@book{doe2020title,\n\tauthor = {Doe, Jane},\n\tseries = {Methods},\n\tyear = {2019},\n\tpublisher = {Springer},\n\ttitle = {A title},\n}',
    'TY  - BOOK\nAU  - Doe, Jane\nDA  - 2019///\nPY  - 2019\nID  - doe2020title\nPB  - Springer\nT2  - Methods\nTI  - A title\nER  - ',
  ],
  [
    'a chapter',
    {
      type: 'chapter',
      'container-title': 'Handbook of Things',
      publisher: 'Humana',
      page: '1-10',
      issued: { 'date-parts': [[2020, 12]] },
    },
    '@incollection{doe2020title,\n\tauthor = {Doe, Jane},\n\tbooktitle = {Handbook of {Things}},\n\tyear = {2020},\n\tmonth = dec,\n\tpages = {1--10},\n\tpublisher = {Humana},\n\ttitle = {A title},\n}',
    'TY  - CHAP\nAU  - Doe, Jane\nID  - doe2020title\nPB  - Humana\nPY  - 2020\nSP  - 1-10\nT2  - Handbook of Things\nTI  - A title\nBT  - Handbook of Things\nER  - ',
  ],
  [
    'a proceedings paper',
    {
      type: 'paper-conference',
      'container-title': 'Proceedings of the Meeting',
      publisher: 'ACM',
      issued: { 'date-parts': [[2015]] },
    },
    '@inproceedings{doe2020title,\n\tauthor = {Doe, Jane},\n\tbooktitle = {Proceedings of the {Meeting}},\n\tyear = {2015},\n\torganization = {ACM},\n\ttitle = {A title},\n}',
    'TY  - CONF\nAU  - Doe, Jane\nC3  - Proceedings of the Meeting\nDA  - 2015///\nC2  - 2015\nID  - doe2020title\nPB  - ACM\nTI  - A title\nT2  - Proceedings of the Meeting\nER  - ',
  ],
  [
    'an encyclopedia entry',
    { type: 'entry-encyclopedia', 'container-title': 'Encyclopedia of Things', issued: { 'date-parts': [[2011]] } },
    '@incollection{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2011},\n\ttitle = {A title},\n\tbooktitle = {Encyclopedia of Things},\n}',
    'TY  - ENCYC\nAU  - Doe, Jane\nDA  - 2011///\nPY  - 2011\nID  - doe2020title\nT2  - Encyclopedia of Things\nTI  - A title\nBT  - Encyclopedia of Things\nER  - ',
  ],
  [
    'a dictionary entry',
    { type: 'entry-dictionary', 'container-title': 'Dictionary of Things', issued: { 'date-parts': [[2011]] } },
    '@incollection{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2011},\n\ttitle = {A title},\n\tbooktitle = {Dictionary of Things},\n}',
    'TY  - DICT\nAU  - Doe, Jane\nID  - doe2020title\nPY  - 2011\nT2  - Dictionary of Things\nTI  - A title\nBT  - Dictionary of Things\nER  - ',
  ],
  [
    'a dictionary entry without its dictionary',
    { type: 'entry-dictionary', issued: { 'date-parts': [[2011]] } },
    '@misc{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2011},\n\ttitle = {A title},\n}',
    'TY  - DICT\nAU  - Doe, Jane\nID  - doe2020title\nPY  - 2011\nTI  - A title\nER  - ',
  ],
  [
    'a thesis of unknown degree',
    { type: 'thesis', publisher: 'University of Somewhere', issued: { 'date-parts': [[2009]] } },
    '@phdthesis{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2009},\n\tschool = {University of Somewhere},\n\ttitle = {A title},\n\ttype = {Thesis},\n}',
    'TY  - THES\nAU  - Doe, Jane\nDA  - 2009///\nPY  - 2009\nID  - doe2020title\nPB  - University of Somewhere\nTI  - A title\nER  - ',
  ],
  [
    "a master's thesis",
    { type: 'thesis', genre: "Master's thesis", publisher: 'University of Somewhere', issued: { 'date-parts': [[2009]] } },
    '@mastersthesis{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2009},\n\tschool = {University of Somewhere},\n\ttitle = {A title},\n}',
    "TY  - THES\nAU  - Doe, Jane\nDA  - 2009///\nPY  - 2009\nID  - doe2020title\nM3  - Master's thesis\nPB  - University of Somewhere\nTI  - A title\nER  - ",
  ],
  [
    'a report in a series',
    {
      type: 'report',
      'container-title': 'NBER Working Paper',
      number: '42',
      publisher: 'NBER',
      issued: { 'date-parts': [[2018]] },
    },
    '@techreport{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2018},\n\tnumber = {42},\n\tinstitution = {NBER},\n\ttitle = {A title},\n\ttype = {NBER Working Paper},\n}',
    'TY  - RPRT\nAU  - Doe, Jane\nDA  - 2018///\nPY  - 2018\nID  - doe2020title\nPB  - NBER\nSN  - 42\nTI  - A title\nT2  - NBER Working Paper\nER  - ',
  ],
  [
    'a report in no series',
    { type: 'report', publisher: 'NBER', issued: { 'date-parts': [[2018]] } },
    '@techreport{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2018},\n\tinstitution = {NBER},\n\ttitle = {A title},\n}',
    'TY  - RPRT\nAU  - Doe, Jane\nDA  - 2018///\nPY  - 2018\nID  - doe2020title\nPB  - NBER\nTI  - A title\nER  - ',
  ],
  [
    'a dataset whose repository publishes it',
    { type: 'dataset', 'container-title': 'Dryad', publisher: 'Dryad', issued: { 'date-parts': [[2011]] } },
    '@misc{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2011},\n\ttitle = {A title},\n\thowpublished = {Dryad},\n}',
    'TY  - DATA\nAU  - Doe, Jane\nDA  - 2011///\nPY  - 2011\nID  - doe2020title\nPB  - Dryad\nTI  - A title\nT2  - Dryad\nER  - ',
  ],
  [
    'a dataset with a link, on a repository of another publisher',
    {
      type: 'dataset',
      'container-title': 'figshare',
      publisher: 'Taylor & Francis',
      URL: 'https://example.org/d',
      issued: { 'date-parts': [[2016]] },
    },
    '@misc{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2016},\n\ttitle = {A title},\n\turl = {https://example.org/d},\n\thowpublished = {figshare, Taylor \\& Francis},\n}',
    'TY  - DATA\nAU  - Doe, Jane\nDA  - 2016///\nPY  - 2016\nID  - doe2020title\nPB  - Taylor & Francis\nTI  - A title\nUR  - https://example.org/d\nT2  - figshare\nER  - ',
  ],
  [
    'software',
    { type: 'software', 'container-title': 'GitHub', version: '1.2', issued: { 'date-parts': [[2021]] } },
    '@misc{doe2020title,\n\tauthor = {Doe, Jane},\n\tyear = {2021},\n\ttitle = {A title},\n\thowpublished = {GitHub},\n}',
    'TY  - COMP\nAU  - Doe, Jane\nET  - 1.2\nID  - doe2020title\nPY  - 2021\nTI  - A title\nT2  - GitHub\nER  - ',
  ],
];

describe('each kind of work, whole', () => {
  it.each(ENTRIES)('%s', async (_name, extra, bibtex, ris) => {
    const csl: CslItem = { id: 'x', title: 'A title', author: [{ family: 'Doe', given: 'Jane' }], ...extra };
    expect(await renderExports(csl, ['bibtex', 'ris'], 'doe2020title')).toEqual({ bibtex, ris });
  });
});

describe('rules a whole entry does not show', () => {
  afterEach(() => {
    vi.doUnmock('@citation-js/core');
    vi.doUnmock('@citation-js/plugin-bibtex');
    vi.doUnmock('@citation-js/plugin-ris');
    vi.resetModules();
  });

  it('reads small capitals and nocase however CSL rich text spaces their tags', async () => {
    const title =
      '<span style=" font-variant: small-caps ">A</span> <span\tstyle="font-variant:small-caps">B</span> <span  class="nocase">C</span>';
    const { bibtex, ris } = await renderExports({ id: 'x', type: 'book', title }, ['bibtex', 'ris'], 'k');
    expect(bibtex).toContain('title = {\\textsc{{A}} \\textsc{{B}} {{C}}},');
    expect(ris).toContain('TI  - A B C\n');
  });

  it('drops a name left empty once braces and backslashes are taken out, trims the others, keeps their other parts', async () => {
    const csl = {
      id: 'x',
      type: 'book',
      title: 'T',
      author: [{ family: '{}' }, { family: 'Doe \\', given: ' Jane' }, { family: 'Roe', given: 'R', 'parse-names': false }],
    } as CslItem;
    const { bibtex } = await renderExports(csl, ['bibtex'], 'k');
    expect(bibtex).toBe('@book{k,\n\tauthor = {Doe, Jane and Roe, R},\n\ttitle = {T},\n}');
  });

  it('adds "and others" only to an author list there is: a cut list of no author writes no author', async () => {
    const csl = { id: 'x', type: 'book', title: 'T', [AUTHORS_CUT]: true } as CslItem;
    expect((await renderExports(csl, ['bibtex'], 'k')).bibtex).toBe('@book{k,\n\ttitle = {T},\n}');
  });

  it('writes the month of a date given as text', async () => {
    const csl = { id: 'x', type: 'book', title: 'T', issued: { 'date-parts': [['2020', '3']] } } as CslItem;
    const { bibtex, ris } = await renderExports(csl, ['bibtex', 'ris'], 'k');
    expect(bibtex).toBe('@book{k,\n\tyear = {2020},\n\tmonth = mar,\n\ttitle = {T},\n}');
    expect(ris).toContain('DA  - 2020/03//\n');
  });

  it('never reads an identifier as rich text: a DOI or a URL that holds a tag keeps it', async () => {
    const csl: CslItem = {
      id: 'x',
      type: 'article-journal',
      title: 'T <i>x</i>',
      'container-title': 'J',
      DOI: '10.1000/<i>x</i>',
      URL: 'https://example.org/?q=<b>x</b>',
    };
    const { bibtex, ris } = await renderExports(csl, ['bibtex', 'ris'], 'k');
    expect(bibtex).toContain('doi = {10.1000/<i>x</i>},');
    expect(bibtex).toContain('url = {https://example.org/?q=<b>x</b>},');
    expect(bibtex).toContain('title = {T \\textit{x}},');
    expect(ris?.split('\n')).toEqual(
      expect.arrayContaining(['DO  - 10.1000/<i>x</i>', 'UR  - https://example.org/?q=<b>x</b>', 'TI  - T x']),
    );
  });

  it('percent-encodes a letter beyond the Basic Multilingual Plane in a URL as one letter', async () => {
    const csl: CslItem = { id: 'x', type: 'webpage', title: 'T', URL: 'https://example.org/𝒳é' };
    expect((await renderExports(csl, ['bibtex'], 'k')).bibtex).toContain('url = {https://example.org/%F0%9D%92%B3%C3%A9},');
  });

  it('writes BibTeX in UTF-8 from a container that loads citation-js afresh: no letter escaped or dropped', async () => {
    vi.resetModules();
    const fresh = await import('../../../lib/citations/exports/exports.js');
    const csl: CslItem = { id: 'x', type: 'book', title: 'Über 北京', author: [{ family: 'Müller', given: 'Jörg' }] };
    expect((await fresh.renderExports(csl, ['bibtex'], 'k')).bibtex).toBe(
      '@book{k,\n\tauthor = {Müller, Jörg},\n\ttitle = {Über 北京},\n}',
    );
  });

  it('loads no citation-js for CSL-JSON alone: a failing load then says nothing', async () => {
    vi.resetModules();
    vi.doMock('@citation-js/plugin-ris', () => {
      throw new Error('chunk could not be read');
    });
    const fresh = await import('../../../lib/citations/exports/exports.js');
    const csl: CslItem = { id: 'x', type: 'book', title: 'T' };
    expect(await fresh.renderExports(csl, ['csl-json'])).toEqual({ csl_json: csl });
  });

  it('names every format it could not render', async () => {
    vi.resetModules();
    class Cite {
      format(): never {
        throw new Error('no writer');
      }
    }
    vi.doMock('@citation-js/core', () => ({ Cite, plugins: { config: { get: () => ({ format: {} }) } } }));
    vi.doMock('@citation-js/plugin-bibtex', () => ({}));
    vi.doMock('@citation-js/plugin-ris', () => ({}));
    const fresh = await import('../../../lib/citations/exports/exports.js');
    const csl: CslItem = { id: 'x', type: 'book', title: 'T' };
    expect(await fresh.renderExports(csl, ['csl-json', 'bibtex', 'ris'])).toEqual({
      csl_json: csl,
      render_error: 'The record could not be rendered as BibTeX or RIS',
    });
  });
});
