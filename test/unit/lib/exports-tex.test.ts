/**
 * The BibTeX exports where they end up: a LaTeX document that cites every one of them, built with
 * classic BibTeX (natbib's plainnat style, which prints URLs and DOIs) and with biblatex and biber. Any
 * error, any BibTeX or biber warning but a missing field, and any citation LaTeX cannot resolve fails the
 * test; so does a field that does not reach the bibliography (a book's title of a chapter, a series, a
 * repository, a month, a URL with `&` and `%`).
 *
 * It needs TeX: Debian's texlive-latex-base, texlive-latex-recommended, texlive-bibtex-extra and biber
 * (.ci/run installs them). Outside CI a machine without them skips it, saying so; with CI=true a missing
 * TeX fails it, so CI always runs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderExports } from '../../../lib/citations/exports/exports.js';
import { type CslItem, cslFromCrossref } from '../../../lib/citations/model/csl.js';
import type { CrossrefWork } from '../../../lib/citations/model/work.js';
import { underCi } from '../../../lib/local/chromium.js';
import { crossrefRecording } from '../../../lib/local/replay-crossref.js';
import { EXPORT_RECORDS } from '../../fixtures/export-records.js';

const TEX_HINT =
  'install TeX: apt-get install --no-install-recommends texlive-latex-base texlive-latex-recommended texlive-bibtex-extra biber';

function found(command: string, args: string[]): boolean {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  return run.status === 0 && run.stdout.trim() !== '';
}
const haveBibtex = found('kpsewhich', ['plainnat.bst', 'url.sty']) && found('bibtex', ['--version']);
const haveBiber = found('kpsewhich', ['biblatex.sty']) && found('biber', ['--version']);
const runBibtex = haveBibtex || underCi();
const runBiber = haveBiber || underCi();
/** The note a test skipped here gives (the run prints it at its end: test/support/reporters.ts). */
const NO_TEX = (what: string) => `no ${what} on this machine; ${TEX_HINT} (with CI=true a missing TeX fails instead)`;

/** Real records too: the recorded Crossref works, as the service exports them. */
const recorded = (JSON.parse(crossrefRecording('boettiger')) as { message: { items: CrossrefWork[] } }).message.items.map(
  (work, i) => ({ key: `recorded_${i + 1}`, csl: cslFromCrossref(work) as CslItem }),
);
const records = [...EXPORT_RECORDS, ...recorded];

let dir: string;
let bib: string;

beforeAll(async () => {
  const entries = await Promise.all(
    records.map(async ({ key, csl }) => {
      const { bibtex, render_error } = await renderExports(csl, ['bibtex'], key);
      expect(render_error).toBeUndefined();
      return bibtex ?? '';
    }),
  );
  bib = `${entries.join('\n\n')}\n`;
  dir = mkdtempSync(join(tmpdir(), 'exports-tex-'));
  writeFileSync(join(dir, 'exports.bib'), bib);
});

afterAll(() => {
  if (dir && !process.env.KEEP_TEX) rmSync(dir, { recursive: true, force: true });
});

/** Runs one TeX program in the build directory; its output, whatever its exit status. */
function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw new Error(`${command} could not run (${result.error.message}); ${TEX_HINT}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// DVI output: no font is rendered, and no font is generated (-no-mktex) on a machine that lacks one.
const LATEX = ['-interaction=nonstopmode', '-halt-on-error', '-no-mktex=tfm', '-no-mktex=pk'];

/** The document: every export cited by its key; lost characters are reported in the log. */
function document(name: string, preamble: string, bibliography: string): void {
  const cites = records.map(({ key }) => `\\cite{${key}}`).join('\n');
  const tex = [
    '\\documentclass{article}',
    '\\usepackage[utf8]{inputenc}',
    preamble,
    '\\tracinglostchars=2',
    '\\begin{document}',
    cites,
    bibliography,
    '\\end{document}',
    '',
  ].join('\n');
  writeFileSync(join(dir, `${name}.tex`), tex);
}

/**
 * LaTeX's complaints in a log that mean something was lost: errors, unresolved citations, lost characters.
 * biblatex's pointer to biber's own warnings is left to the check of those.
 */
function latexProblems(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => /^!|LaTeX Warning|Package (natbib|biblatex) Warning|Missing character|undefined/.test(line))
    .filter((line) => !line.includes('Biber reported the following issues'));
}

/** Text of a .bbl without TeX's line breaks, braces and case protection, to look for a field's words in. */
function flat(bbl: string): string {
  return bbl.replace(/[{}]/g, '').replace(/\s+/g, ' ');
}

/** What each record must show in the bibliography, whichever way it is built. */
const MUST_SHOW: Record<string, string[]> = {
  journal_article: ['Journal of R\\&D', 'https://example.org/article?id=1&lang=en'],
  book_in_series: ['Lecture Notes in \\textitMathematics', '1234', 'Springer'],
  book_chapter: ['Handbook of \\textitEnzymes', 'Methods in Molecular Biology', 'Menten', 'International Union of Biochemistry'],
  proceedings_paper: ['Proceedings of the Seventh International Learning Analytics \\& Knowledge Conference'],
  thesis: ['Wageningen University'],
  report: ['World Bank Group', 'WP-123'],
  dataset: ['Zenodo', 'https://zenodo.org/records/123?download=1&preview=0'],
  corporate_author: ['World Health Organization', 'Cavaco‐Paulo'],
  hostile_text: ['https://example.org/search?q=R%26D&page=2#results_1'],
  encyclopedia_entry: ['Encyclopedia of Ecology'],
  preprint: ['bioRxiv'],
};

describe('the BibTeX exports built by LaTeX and BibTeX (natbib, plainnat)', () => {
  it('cite every record without an error, a lost field or a lost character', (context) => {
    context.skip(!runBibtex, NO_TEX('LaTeX with natbib, or BibTeX,'));
    expect(haveBibtex, TEX_HINT).toBe(true);
    document('plainnat', '\\usepackage{url}\n\\usepackage{natbib}', '\\bibliographystyle{plainnat}\n\\bibliography{exports}');
    const first = run('latex', [...LATEX, 'plainnat.tex']);
    expect(first.status, first.output).toBe(0);
    const bibtex = run('bibtex', ['plainnat']);
    const blg = readFileSync(join(dir, 'plainnat.blg'), 'utf8');
    // BibTeX's warnings that lose nothing: a field the record does not have.
    const warnings = blg.split('\n').filter((line) => /^Warning--|error message|^I was expecting|^I'm skipping/.test(line));
    expect(warnings.filter((line) => !/^Warning--empty \w+ in \w+$/.test(line))).toEqual([]);
    expect(bibtex.status === 0 || warnings.length > 0, bibtex.output).toBe(true);
    for (let pass = 0; pass < 2; pass += 1) expect(run('latex', [...LATEX, 'plainnat.tex']).status).toBe(0);
    expect(latexProblems(readFileSync(join(dir, 'plainnat.log'), 'utf8'))).toEqual([]);

    const bbl = readFileSync(join(dir, 'plainnat.bbl'), 'utf8');
    for (const { key } of records) expect(bbl).toContain(`{${key}}`);
    const items = Object.fromEntries(
      flat(bbl)
        .split('\\bibitem')
        .slice(1)
        .map((item) => [/^\[[^\]]*\](\w+)/.exec(item)?.[1] ?? '', item]),
    );
    for (const [key, shown] of Object.entries(MUST_SHOW)) {
      for (const text of shown) expect(items[key], key).toContain(text);
    }
    // Months by their macros: the style writes the month's name, never its number.
    expect(items.book_in_series).toContain('January 2019');
    expect(items.proceedings_paper).toContain('March 2017');
    expect(items.journal_article).toContain('June 2013');
    // The series of a book in a series, the book of a chapter: where plainnat prints them.
    expect(items.book_chapter).toMatch(
      /In Maud Menten and International Union of Biochemistry, editors, \\emph ?Handbook of \\textitEnzymes/,
    );
    expect(items.book_in_series).toContain('Number 1234 in Lecture Notes in \\textitMathematics');
  });
});

describe('the BibTeX exports built by LaTeX, biblatex and biber', () => {
  it('cite every record without an error, a warning or a lost field', (context) => {
    context.skip(!runBiber, NO_TEX('biblatex or biber'));
    expect(haveBiber, TEX_HINT).toBe(true);
    document('biblatex', '\\usepackage[backend=biber]{biblatex}\n\\addbibresource{exports.bib}', '\\printbibliography');
    const first = run('latex', [...LATEX, 'biblatex.tex']);
    expect(first.status, first.output).toBe(0);
    const biber = run('biber', ['--validate-datamodel', 'biblatex']);
    // biber's warnings that lose nothing: a field the record does not have.
    const warnings = biber.output.split('\n').filter((line) => /WARN|ERROR/.test(line));
    expect(warnings.filter((line) => !/Missing mandatory field '\w+'$|^INFO - WARNINGS/.test(line))).toEqual([]);
    expect(biber.status, biber.output).toBe(0);
    for (let pass = 0; pass < 2; pass += 1) expect(run('latex', [...LATEX, 'biblatex.tex']).status).toBe(0);
    expect(latexProblems(readFileSync(join(dir, 'biblatex.log'), 'utf8'))).toEqual([]);

    const bbl = readFileSync(join(dir, 'biblatex.bbl'), 'utf8');
    const entries = Object.fromEntries(
      bbl
        .split('\\entry{')
        .slice(1)
        .map((entry) => [/^(\w+)\}/.exec(entry)?.[1] ?? '', flat(entry)]),
    );
    for (const { key } of records) expect(entries[key], key).toBeDefined();
    for (const [key, shown] of Object.entries(MUST_SHOW)) {
      for (const text of shown) expect(entries[key], key).toContain(text);
    }
    expect(entries.book_in_series).toContain('\\fieldseriesLecture Notes in \\textitMathematics');
    expect(entries.book_chapter).toContain('\\fieldbooktitleHandbook of \\textitEnzymes');
    expect(entries.proceedings_paper).toContain('\\fieldmonth3');
    expect(entries.corporate_author).toMatch(/family=World Health Organization,/);
  });
});
