/**
 * The style pack's format (lib/citations/render/styles/pack-format.ts): the catalogue's columns give back the
 * styles they were written from, and what renders the five formats needs pack.json alone: a function that
 * cites in the five formats never reads the catalogue (a new container's longest wait after the network, when
 * it did).
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogue, loadStylePack } from '../../../lib/citations/render/style-catalogue.js';
import { bodyOf, fieldSetsOf, type PackedStyle, styleOf, toColumns } from '../../../lib/citations/render/styles/pack-format.js';

const STYLES: PackedStyle[] = [
  {
    id: 'a-independent',
    title: 'A Journal',
    title_short: 'A J',
    fields: ['biology', 'medicine'],
    citation_format: 'numeric',
    default_locale: 'de-DE',
    body: [0, 0, 10],
  },
  { id: 'b-dependent', title: 'B Review', fields: ['medicine'], citation_format: 'numeric', parent: 'a-independent' },
  {
    id: 'c-dependent',
    title: 'C Letters',
    fields: [],
    citation_format: 'author-date',
    default_locale: 'en-GB',
    parent: 'd-independent',
  },
  { id: 'd-independent', title: 'Über D', fields: ['history'], citation_format: 'author-date', body: [1, 20, 30] },
];

describe('the catalogue in columns', () => {
  it('gives back every style as written, its body at its index, and names each field, field set, format and locale once', () => {
    const columns = JSON.parse(JSON.stringify(toColumns([...STYLES, { ...(STYLES[1] as PackedStyle), id: 'e-dependent' }])));
    expect(columns.field_names).toEqual(['biology', 'history', 'medicine']);
    // Sets by size, then as written: the empty one, each single field, the pair.
    expect(columns.field_sets).toEqual([[], [1], [2], [0, 2]]);
    expect(columns.fields).toEqual([3, 2, 0, 1, 2]);
    expect(columns.formats).toEqual(['author-date', 'numeric']);
    expect(columns.locale_names).toEqual(['de-DE', 'en-GB']);
    expect(columns.parent).toEqual([-1, 0, 3, -1, 0]);
    expect(columns.body).toEqual([0, 0, 10, -1, -1, -1, -1, -1, -1, 1, 20, 30, -1, -1, -1]);
    const sets = fieldSetsOf(columns);
    const back = STYLES.map((_, i) => styleOf(columns, sets, i));
    expect(back).toEqual(STYLES.map(({ body: _body, ...style }) => style));
    expect(STYLES.map((_, i) => bodyOf(columns, i))).toEqual(STYLES.map((style) => style.body));
    expect(back.every((style) => Object.isFrozen(style) && Object.isFrozen(style.fields))).toBe(true);
    // Two styles of one set share its list.
    expect(styleOf(columns, sets, 4).fields).toBe(back[1]?.fields);
  });

  it('refuses a parent, a field or a format it cannot name rather than writing a wrong index', () => {
    expect(() => toColumns([{ ...(STYLES[1] as PackedStyle), parent: 'no-such-style' }])).toThrow(/no-such-style/);
  });
});

describe('a pack without its catalogue', () => {
  const pack = fileURLToPath(new URL('../../../lib/citations/render/styles/pack/', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'style-pack-'));
  for (const file of readdirSync(pack)) if (file !== 'catalogue.json.br') copyFileSync(join(pack, file), join(dir, file));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('still gives the pinned styles and locales, and any locale, from pack.json and the parts', async () => {
    const styles = await loadStylePack(dir);
    expect(styles.pinnedStyle('apa')).toMatch(/<style\b/);
    expect(styles.pinnedLocale('en-GB')).toMatch(/<locale\b[^>]*xml:lang="en-GB"/);
    expect(styles.locale('de')).toMatch(/xml:lang="de-DE"/);
    await expect(loadCatalogue(dir)).rejects.toThrow(/catalogue\.json\.br/);
  });
});
