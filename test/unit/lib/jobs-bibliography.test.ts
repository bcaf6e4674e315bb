/** A submitted bibliography read as its references (lib/jobs/bibliography.ts): BibTeX, RIS, a pasted list. */
import { describe, expect, it } from 'vitest';
import { bibliographyForm, splitBibliography } from '../../../lib/jobs/bibliography.js';

describe('a bibliography', () => {
  it('reads a BibTeX file entry by entry as references a reader would write, TeX undone, and skips @comment, @string and @preamble', () => {
    const bib = [
      '@string{el = "Ecology Letters"}',
      '@article{boettiger2018noise,',
      '  author = {Boettiger, Carl and M{\\"u}ller, J{\\"o}rg},',
      '  title = {From noise to knowledge: {H}ow randomness},',
      '  journal = {Ecology Letters}, volume = 21, pages = {1255--1267}, year = {2018},',
      '  doi = {https://doi.org/10.1111/ele.13085}',
      '}',
      '@comment{ignored}',
      '@book{b, title = "Second \\& last", year = 2020}',
    ].join('\n');
    expect(bibliographyForm(bib)).toBe('bibtex');
    expect(splitBibliography(bib)).toEqual([
      'Boettiger, Carl, Müller, Jörg (2018). From noise to knowledge: How randomness. Ecology Letters, 21, 1255–1267. https://doi.org/10.1111/ele.13085',
      '(2020). Second & last',
    ]);
  });

  it('reads a RIS file record by record', () => {
    const ris =
      'TY  - JOUR\nAU  - Doe, Jane\nAU  - Roe, Rick\nTI  - First\nT2  - Journal of Tests\nPY  - 2019///\nVL  - 4\nSP  - 10\nEP  - 19\nDO  - 10.1000/one\nER  - \nTY  - BOOK\nTI  - Second\nER  - \n';
    expect(bibliographyForm(ris)).toBe('ris');
    expect(splitBibliography(ris)).toEqual([
      'Doe, Jane, Roe, Rick (2019). First. Journal of Tests, 4, 10–19. https://doi.org/10.1000/one',
      'Second',
    ]);
  });

  it('reads a pasted list as one reference a paragraph when blank lines part them, else one a line', () => {
    expect(splitBibliography('A, B. (2001). One.\n\nC, D. (2002). Two, wrapped\nover a line.\n')).toEqual([
      'A, B. (2001). One.',
      'C, D. (2002). Two, wrapped\nover a line.',
    ]);
    expect(splitBibliography('One.\n  Two.\r\n\nThree.')).toEqual(['One.\n  Two.', 'Three.']);
    expect(splitBibliography('One.\nTwo.\n\n')).toEqual(['One.', 'Two.']);
    expect(splitBibliography('  \n \n')).toEqual([]);
  });
});
