/**
 * The CSL style pack (lib/citations/render/styles/pack/, written by lib/citations/render/styles/pack-write.ts) and the
 * module that reads it: the catalogue's contents, search, "did you mean", the bodies behind it (every
 * independent style decompresses to itself), the pinned texts equal to where the renderer has read them,
 * and citeproc building an engine from a repository style and from a dependent.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Catalogue, closeStyleIds, loadCatalogue, searchStyles } from '../../../lib/citations/render/style-catalogue.js';
import { PART_BYTES } from '../../../lib/citations/render/styles/pack-format.js';

const require = createRequire(import.meta.url);
const stylesDir = new URL('../../../lib/citations/render/styles/', import.meta.url);

let catalogue: Catalogue;

beforeAll(async () => {
  catalogue = await loadCatalogue();
});

describe('the pack', () => {
  it('keeps every file under 1 MiB: the bodies in parts, each read back by the catalogue', () => {
    const pack = new URL('pack/', stylesDir);
    const files = readdirSync(pack);
    expect(files.filter((file) => /^styles-\d{2}\.bin$/.test(file)).length).toBeGreaterThan(1);
    for (const file of files) expect(statSync(new URL(file, pack)).size, file).toBeLessThanOrEqual(PART_BYTES);
    // The last independent style and a locale live in later parts than the first style.
    const last = catalogue.styles.filter((style) => !style.parent).at(-1)?.id ?? '';
    expect(catalogue.styleForRendering(last)?.xml).toContain(`<id>http://www.zotero.org/styles/${last}</id>`);
    expect(catalogue.locale('zh-TW')).toMatch(/<locale\b/);
  });
});

describe('the catalogue', () => {
  it('holds every style of the CSL repository, sorted by id, and its sources', () => {
    expect(catalogue.total).toBeGreaterThanOrEqual(2000);
    expect(catalogue.total).toBe(catalogue.styles.length);
    const ids = catalogue.styles.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(ids).size).toBe(ids.length);
    const independents = catalogue.styles.filter((s) => !s.parent).length;
    expect(independents).toBeGreaterThanOrEqual(2000);
    expect(catalogue.total - independents).toBeGreaterThanOrEqual(5000);
    expect(catalogue.source.styles_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(catalogue.source.locales_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(catalogue.source.styles_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(catalogue.source.locales_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is loaded once per process', async () => {
    expect(await loadCatalogue()).toBe(catalogue);
  });

  it('does not cache a failed load', async () => {
    const missing = new URL('./no-such-pack/', import.meta.url);
    await expect(loadCatalogue(missing)).rejects.toThrow();
    await expect(loadCatalogue(missing)).rejects.toThrow();
  });

  it('gives every style a title and a citation format, and every dependent a known independent parent', () => {
    for (const style of catalogue.styles) {
      expect(style.title, style.id).not.toBe('');
      expect(['author-date', 'numeric', 'note', 'label', 'author'], style.id).toContain(style.citation_format);
      expect(style.fields, style.id).toEqual([...style.fields].sort());
      if (style.parent) {
        const parent = catalogue.get(style.parent);
        expect(parent, style.id).toBeDefined();
        expect(parent?.parent, style.id).toBeUndefined();
      }
    }
  });

  it('finds a style by id or by its URL, with its metadata', () => {
    const nature = catalogue.get('nature');
    expect(nature).toMatchObject({ id: 'nature', title: 'Nature', citation_format: 'numeric' });
    expect(nature?.fields).toContain('science');
    expect(nature?.parent).toBeUndefined();
    expect(catalogue.get('http://www.zotero.org/styles/nature')).toBe(nature);
    expect(catalogue.get('https://www.zotero.org/styles/nature')).toBe(nature);
    expect(catalogue.get('no-such-style')).toBeUndefined();
    // entities in titles are decoded
    expect(catalogue.styles.some((s) => s.title.includes('&') && !s.title.includes('&amp;'))).toBe(true);
  });
});

describe('searchStyles', () => {
  it('puts the exact id first', () => {
    const found = searchStyles(catalogue, 'nature');
    expect(found.styles[0]?.id).toBe('nature');
    expect(found.total).toBeGreaterThan(10);
    expect(searchStyles(catalogue, 'IEEE').styles[0]?.id).toBe('ieee');
  });

  it('needs every word, ignores case and accents, and pages', () => {
    const found = searchStyles(catalogue, 'American Medical Association');
    expect(found.styles[0]?.id).toBe('american-medical-association');
    for (const style of found.styles) {
      const text = `${style.id} ${style.title} ${style.title_short ?? ''}`.toLowerCase();
      for (const word of ['american', 'medical', 'association']) expect(text, style.id).toContain(word);
    }
    const accented = searchStyles(catalogue, 'Universität');
    const plain = searchStyles(catalogue, 'universitat');
    expect(accented.total).toBeGreaterThan(0);
    expect(accented.total).toBe(plain.total);
    const page = searchStyles(catalogue, 'nature', { limit: 3, offset: 1 });
    expect(page.total).toBe(searchStyles(catalogue, 'nature').total);
    expect(page.styles.map((s) => s.id)).toEqual(
      searchStyles(catalogue, 'nature')
        .styles.slice(1, 4)
        .map((s) => s.id),
    );
  });

  it('ranks ids starting with the query, then titles, independents first at equal rank', () => {
    const ids = searchStyles(catalogue, 'chicago').styles;
    const startsAt = ids.findIndex((s) => !s.id.startsWith('chicago'));
    expect(startsAt).toBeGreaterThan(0);
    expect(ids.slice(0, startsAt).every((s) => s.id.startsWith('chicago'))).toBe(true);
    const within = ids.slice(0, startsAt);
    const firstDependent = within.findIndex((s) => s.parent);
    if (firstDependent >= 0) expect(within.slice(firstDependent).every((s) => s.parent)).toBe(true);
  });

  it('matches a field name, and filters by field', () => {
    const physics = searchStyles(catalogue, 'physics');
    expect(physics.styles.some((s) => s.fields.includes('physics') && !/physics/i.test(`${s.id} ${s.title}`))).toBe(true);
    const political = searchStyles(catalogue, 'Political Science');
    expect(political.styles.some((s) => s.fields.includes('political_science'))).toBe(true);
    const inMedicine = searchStyles(catalogue, 'journal', { field: 'medicine', limit: 20 });
    expect(inMedicine.total).toBeGreaterThan(20);
    for (const style of inMedicine.styles) expect(style.fields).toContain('medicine');
  });
});

describe('closeStyleIds', () => {
  // Its speed is the benchmark's to measure (a test's verdict must not depend on how busy the machine is).
  it('suggests close ids', () => {
    expect(closeStyleIds(catalogue, 'ieeee')[0]).toBe('ieee');
    expect(closeStyleIds(catalogue, 'nature-journal')).toContain('nature');
    expect(closeStyleIds(catalogue, 'american-medical-assocation')[0]).toBe('american-medical-association');
    expect(closeStyleIds(catalogue, 'apa', 3)).toHaveLength(3);
  });
});

describe('bodies', () => {
  it('decompresses every independent style to itself', () => {
    const independents = catalogue.styles.filter((s) => !s.parent);
    for (const style of independents) {
      const rendering = catalogue.styleForRendering(style.id);
      expect(rendering?.independent_id, style.id).toBe(style.id);
      const xml = rendering?.xml ?? '';
      expect(/^(<\?xml|<style)/.test(xml), style.id).toBe(true);
      // one style writes `<id> http://…` with a space
      expect(xml, style.id).toMatch(new RegExp(`<id>\\s*http://www\\.zotero\\.org/styles/${style.id}\\s*</id>`));
      expect(rendering?.locale, style.id).toBe(style.default_locale ?? 'en-US');
    }
  });

  it('gives a dependent its parent body and its own default locale', () => {
    const dependent = catalogue.get('abi-technik');
    expect(dependent).toMatchObject({ parent: 'chicago-notes-classic', default_locale: 'de-DE' });
    const rendering = catalogue.styleForRendering('abi-technik');
    expect(rendering).toMatchObject({ id: 'abi-technik', independent_id: 'chicago-notes-classic', locale: 'de-DE' });
    expect(rendering?.xml).toBe(catalogue.styleForRendering('chicago-notes-classic')?.xml);
    expect(catalogue.get('chicago-notes-classic')?.default_locale).toBeUndefined();
    expect(catalogue.styleForRendering('no-such-style')).toBeUndefined();
  });

  it('reads locales by tag and by bare language', () => {
    const de = catalogue.locale('de');
    expect(de).toBeDefined();
    expect(de).toBe(catalogue.locale('de-DE'));
    expect(de).toMatch(/<locale\b[^>]*xml:lang="de-DE"/);
    expect(catalogue.locale('en')).toMatch(/xml:lang="en-US"/);
    expect(catalogue.locale('fr-CA')).toMatch(/xml:lang="fr-CA"/);
    expect(catalogue.locale('xx')).toBeUndefined();
  });
});

describe('pinned texts', () => {
  it('are the texts the renderer has read, byte for byte', () => {
    const bundledStyles = require('@citation-js/plugin-csl/lib/styles.json') as Record<string, string>;
    const bundledLocales = require('@citation-js/plugin-csl/lib/locales.json') as Record<string, string>;
    const file = (name: string) => readFileSync(new URL(name, stylesDir), 'utf8');
    expect(catalogue.pinnedStyle('mla')).toBe(file('modern-language-association.csl'));
    expect(catalogue.pinnedStyle('chicago')).toBe(file('chicago-notes-bibliography.csl'));
    for (const name of ['apa', 'harvard1', 'vancouver'] as const) {
      expect(catalogue.pinnedStyle(name), name).toBe(bundledStyles[name]);
    }
    expect(catalogue.pinnedLocale('en-US')).toBe(bundledLocales['en-US']);
    expect(catalogue.pinnedLocale('en-GB')).toBe(file('locales-en-GB.xml'));
  });
});

describe('rendering with citeproc', () => {
  const item = {
    id: 'item-1',
    type: 'article-journal',
    title: 'A study of citation styles',
    author: [
      { family: 'Müller', given: 'Anna' },
      { family: 'Smith', given: 'John' },
    ],
    'container-title': 'Journal of Examples',
    volume: '12',
    issue: '3',
    page: '45-67',
    issued: { 'date-parts': [[2021, 5, 4]] },
    DOI: '10.1234/example.5678',
  };

  async function bibliography(id: string, entry: Record<string, unknown> = item): Promise<string> {
    const CSL = (await import('citeproc')).default;
    const rendering = catalogue.styleForRendering(id);
    if (!rendering) throw new Error(`no style ${id}`);
    const engine = new CSL.Engine(
      { retrieveLocale: (lang: string) => catalogue.locale(lang), retrieveItem: () => entry },
      rendering.xml,
      rendering.locale,
      true,
    );
    engine.setOutputFormat('text');
    engine.updateItems([entry.id as string]);
    const result = engine.makeBibliography();
    if (!result) throw new Error(`${id} has no bibliography`);
    return result[1].join('');
  }

  it('renders with a repository style', async () => {
    const text = await bibliography('ieee');
    expect(text).toContain('A study of citation styles');
    expect(text).toContain('Müller');
  });

  it('renders with a dependent style in its own locale', async () => {
    // a German journal's style whose parent (springer-basic-brackets) is written in en-US
    expect(catalogue.get('datenbank-spektrum')).toMatchObject({ parent: 'springer-basic-brackets', default_locale: 'de-DE' });
    const rendering = catalogue.styleForRendering('datenbank-spektrum');
    expect(rendering?.locale).toBe('de-DE');
    const book = {
      id: 'item-2',
      type: 'book',
      title: 'A study of citation styles',
      author: [{ family: 'Müller', given: 'Anna' }],
      edition: '2',
      publisher: 'Verlag',
      'publisher-place': 'Berlin',
      issued: { 'date-parts': [[2021]] },
    };
    const text = await bibliography('datenbank-spektrum', book);
    expect(text).toContain('A study of citation styles');
    expect(text).toContain('2. Aufl.');
    // a dependent of nature
    expect(catalogue.get('lab-animal')?.parent).toBe('nature');
    expect(await bibliography('lab-animal')).toContain('A study of citation styles');
  });
});
