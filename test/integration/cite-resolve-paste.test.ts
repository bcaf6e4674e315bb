/**
 * References as they are pasted (from a PDF, a word processor, a web page), over real HTTP: line breaks
 * of every kind, tabs, no-break and other spaces, soft hyphens, zero-width characters, a word hyphenated
 * across a line break and stray control characters all read as the text they break, so the reference
 * resolves as its clean form does; a batch is never refused for one reference's text, only answered per
 * reference (an empty or overlong one says so). The fake Crossref answers from recorded Crossref answers.
 */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../lib/contract/cite-resolve.js';
import { useCrossrefService } from '../support/crossref-service.js';

const { harness } = await useCrossrefService();

const CLEAN =
  'Boettiger, C. (2018). From noise to knowledge: how randomness generates novel phenomena and reveals information. Ecology Letters, 21(8), 1255-1267.';
const DOI = '10.1111/ele.13085';

/** The clean reference broken as pastes break it. */
const PASTED: [string, string][] = [
  ['line feeds', CLEAN.replace('knowledge: how', 'knowledge:\nhow').replace('Ecology', '\nEcology')],
  ['CR LF', CLEAN.replace(' (2018). ', '\r\n(2018).\r\n')],
  ['tabs', CLEAN.replace(/ /g, '\t')],
  ['no-break and other spaces', CLEAN.replace('From noise', 'From\u00a0noise').replace('reveals', '\u2009reveals\u202f')],
  ['soft hyphens', CLEAN.replace('randomness', 'random\u00adness').replace('phenomena', 'phe\u00ad\nnomena')],
  ['a word hyphenated across a line break', CLEAN.replace('information', 'infor-\nmation')],
  [
    'zero-width characters and a byte-order mark',
    `\ufeff${CLEAN.replace('novel', 'no\u200bvel').replace('generates', 'gener\u200dates')}`,
  ],
  [
    'line and paragraph separators, vertical tab and form feed',
    CLEAN.replace(' how', '\u2028how').replace(' and', '\u2029and\v\f'),
  ],
  ['stray control characters', CLEAN.replace('Letters,', 'Letters,\u0007').replace('C. (', 'C.\u0000 (')],
  ['a lone surrogate', CLEAN.replace('Ecology', '\ud800Ecology')],
  [
    'its markup and entities, copied from a web page',
    CLEAN.replace('Ecology Letters', '<i>Ecology&#160;Letters</i>')
      .replace('From noise', 'From&nbsp;noise')
      .replace('randomness generates', 'randomness&#x20;generates'),
  ],
];

describe('POST /v1/cite/resolve with pasted references', () => {
  it('resolves the clean reference', async () => {
    const reply = await harness.service.post('/v1/cite/resolve', { references: [CLEAN] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.references[0].doi).toBe(DOI);
  });

  it.each(PASTED)('resolves it pasted with %s, to the same DOI, in one batch with the rest', async (_name, pasted) => {
    const reply = await harness.service.post('/v1/cite/resolve', { references: [pasted, CLEAN] });
    expect(reply.status, reply.text).toBe(200);
    expect(responseSchema.parse(reply.json.data)).toEqual(reply.json.data);
    expect(reply.json.data.references.map((r: { doi: string | null }) => r.doi)).toEqual([DOI, DOI]);
    // The answer gives the reference back as it was sent.
    expect(reply.json.data.references[0].input).toBe(pasted);
  });

  it('answers every variant in one batch, all resolved', async () => {
    const reply = await harness.service.post('/v1/cite/resolve', { references: PASTED.map(([, pasted]) => pasted) });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.resolved).toBe(PASTED.length);
  });

  it('answers an empty, a blank and an overlong reference each with its reason, beside a resolved one', async () => {
    const long = `${CLEAN} `.repeat(20);
    const reply = await harness.service.post('/v1/cite/resolve', { references: ['', ' \n\t\u00a0', long, CLEAN] });
    expect(reply.status, reply.text).toBe(200);
    const [empty, blank, overlong, clean] = reply.json.data.references;
    expect(empty).toMatchObject({ doi: null, match: { rule: 'empty' }, reason: 'The reference is empty' });
    expect(blank).toMatchObject({ doi: null, match: { rule: 'empty' } });
    expect(overlong).toMatchObject({ doi: null, match: { rule: 'too_long' } });
    expect(overlong.reason).toMatch(/longer than 2000 characters/);
    expect(clean.doi).toBe(DOI);
    expect(reply.json.data.resolved).toBe(1);
  });

  it('still refuses what is no list of references: a string, a number among them, more than 50, none', async () => {
    for (const references of ['just one', [CLEAN, 5], Array(51).fill(CLEAN), []]) {
      const reply = await harness.service.post('/v1/cite/resolve', { references });
      expect(reply.status, JSON.stringify(references).slice(0, 60)).toBe(400);
      expect(reply.json.error.details).toMatch(/^references/);
    }
  });
});
