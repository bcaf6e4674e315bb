/**
 * Any CSL style of the catalogue, rendered on demand (lib/citations/render/style-engines.ts): ids checked with
 * close suggestions, engines shared by a parent and its dependents, kept within their bound, and entries
 * written without the wrappers and list numbers citeproc adds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tidyEntry } from '../../../lib/citations/render/render.js';
import { loadCatalogue } from '../../../lib/citations/render/style-catalogue.js';
import { checkStyleIds, keptStyleEngines, renderStyles, STYLE_ENGINES_MAX } from '../../../lib/citations/render/style-engines.js';
import { AppError } from '../../../lib/errors.js';
import { EARLY_WARNING_CSL } from '../../fixtures/csl-items.js';

const ARTICLE = EARLY_WARNING_CSL;

beforeAll(async () => {
  await loadCatalogue();
}, 60_000);

describe('checkStyleIds', () => {
  it('gives the catalogue spelling: any letter case, the full URL, each id once', async () => {
    expect(await checkStyleIds(['IEEE', 'http://www.zotero.org/styles/nature', 'ieee'])).toEqual(['ieee', 'nature']);
  });

  it('refuses unknown ids with a 400 naming each, with close ids', async () => {
    const error = await checkStyleIds(['nature', 'ieeee', 'no-such-style-at-all-xyz']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INVALID_REQUEST');
    expect((error as AppError).details).toMatch(/^styles\.1: no CSL style "ieeee"; close ids: ieee\b/);
    expect((error as AppError).details).toContain('styles.2: no CSL style "no-such-style-at-all-xyz"');
  });

  it('names the field it checks', async () => {
    const error = (await checkStyleIds(['naturee'], 'format').catch((e: unknown) => e)) as AppError;
    expect(error.details).toMatch(/^format: no CSL style "naturee"/);
  });
});

describe('tidyEntry', () => {
  it("drops a numbered style's number, in text and in HTML", () => {
    expect(tidyEntry('[1]D. Tkaczyk, “CERMINE,” 2015.\n', 'text', true)).toBe('D. Tkaczyk, “CERMINE,” 2015.');
    expect(tidyEntry('1. Tkaczyk D. CERMINE. 2015.', 'text', true)).toBe('Tkaczyk D. CERMINE. 2015.');
    expect(
      tidyEntry(
        '<div class="csl-entry">\n  <div class="csl-left-margin">[1]</div><div class="csl-right-inline">D. Tkaczyk, <i>IJDAR</i>.</div>\n</div>',
        'html',
        true,
      ),
    ).toBe('D. Tkaczyk, <i>IJDAR</i>.');
  });

  it('keeps a leading number of an unnumbered style: it belongs to the entry', () => {
    expect(tidyEntry('3M Company. (2015). Report.', 'text', false)).toBe('3M Company. (2015). Report.');
    expect(tidyEntry('<div class="csl-entry">3M Company. <i>Report</i>.</div>', 'html', false)).toBe(
      '3M Company. <i>Report</i>.',
    );
  });
});

describe('renderStyles', () => {
  it("renders each asked style, a dependent in its parent's rules, and nothing for a record without title or container", async () => {
    const [article, empty] = await renderStyles([ARTICLE, { id: 'empty', type: 'article-journal' }], ['ieee', 'lab-animal']);
    expect(article?.ieee).toMatch(/^C\. Boettiger, N\. Ross, and A\. Hastings, “Early warning signals/);
    expect(article?.['lab-animal']).toMatch(/^Boettiger, C\., Ross, N\. & Hastings, A\. Early warning signals/);
    expect(empty).toEqual({});
  });

  it("gives a notes-only style's note", async () => {
    const catalogue = await loadCatalogue();
    const notesOnly = catalogue.styles.find(
      (style) => style.parent && !/<bibliography\b/.test(catalogue.styleForRendering(style.id)?.xml ?? '<bibliography'),
    );
    expect(notesOnly, 'the catalogue holds a style without a bibliography').toBeDefined();
    const [styled] = await renderStyles([ARTICLE], [notesOnly?.id as string]);
    expect(styled?.[notesOnly?.id as string]).toContain('Early');
  });

  it('shares one engine between dependents of one parent in one locale, and keeps at most the bound', async () => {
    await renderStyles([ARTICLE], ['the-lancet']);
    const before = keptStyleEngines();
    await renderStyles([ARTICLE], ['the-lancet-oncology', 'the-lancet-neurology']);
    expect(keptStyleEngines()).toBe(before);

    const catalogue = await loadCatalogue();
    const small = catalogue.styles
      .filter((style) => !style.parent && style.citation_format === 'numeric')
      .slice(0, STYLE_ENGINES_MAX + 2)
      .map((style) => style.id);
    const rendered = await renderStyles([ARTICLE], small);
    expect(Object.keys(rendered[0] ?? {}).length).toBeGreaterThan(STYLE_ENGINES_MAX);
    expect(keptStyleEngines()).toBe(STYLE_ENGINES_MAX);
  }, 120_000);
});
