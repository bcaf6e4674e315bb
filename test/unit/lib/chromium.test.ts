import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumCandidates, findChromium, SYSTEM_CHROMIUM_PATHS, underCi } from '../../../lib/local/chromium.js';

// Any existing file stands in for a browser binary: the lookup only asks whether it is there.
const present = process.execPath;

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first when it exists', () => {
    expect(findChromium({ CHROMIUM_PATH: present })).toBe(present);
  });

  it('falls back to the search paths when CHROMIUM_PATH names no file', () => {
    const env = { CHROMIUM_PATH: '/nowhere/chrome', CHROMIUM_SEARCH_PATHS: ['/nowhere/chromium', present].join(delimiter) };
    expect(findChromium(env)).toBe(present);
  });

  it('looks at the usual system paths unless CHROMIUM_SEARCH_PATHS replaces them', () => {
    expect(chromiumCandidates({})).toEqual(expect.arrayContaining([...SYSTEM_CHROMIUM_PATHS]));
    const hidden = chromiumCandidates({ CHROMIUM_SEARCH_PATHS: '' });
    for (const path of SYSTEM_CHROMIUM_PATHS) expect(hidden).not.toContain(path);
  });
});

describe('underCi', () => {
  it.each([
    ['true', true],
    ['1', true],
    ['TRUE', true],
    ['false', false],
    ['', false],
    [undefined, false],
  ])('reads CI=%s as %s', (value, expected) => {
    expect(underCi({ CI: value })).toBe(expected);
  });
});
