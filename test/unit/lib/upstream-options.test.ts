import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS_FILE, optionValues, readEngineMetadata, renderUpstreamOptions } from '../../../lib/upstream/options-write.js';

describe('lib/upstream/serpapi-options.ts', () => {
  it("is what the writer generates from SerpApi's metadata (run `npx tsx lib/upstream/options-write.ts` after updating it)", () => {
    expect(readFileSync(OPTIONS_FILE, 'utf8')).toBe(renderUpstreamOptions());
  });

  it('reads option values with their labels dropped, as strings', () => {
    expect(optionValues(readEngineMetadata('duckduckgo').params.safe)).toEqual(['1', '-1', '-2']);
    expect(optionValues(readEngineMetadata('baidu').params.ct)).toEqual(['1', '2', '3']);
  });
});
