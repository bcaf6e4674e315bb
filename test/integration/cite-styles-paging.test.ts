/**
 * POST /v1/cite/styles pages to the end (docs/decisions.md §23): the whole catalogue is listed by following
 * `has_more`, every style once, and a page that says `has_more` is never followed by a page the request
 * schema refuses (pages 0–99 at 100 a page reached 10,000 of the ~10,900 styles, and page 99 said
 * `has_more` while page 100 was a 400). Over HTTP, the real handler; the catalogue is the shipped one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STYLES_LAST_PAGE, STYLES_RESULTS_MAX } from '../../lib/contract/cite-styles.js';
import { useService } from '../support/service.js';

const harness = useService();
const styles = (body: Record<string, unknown>) => harness.service.post('/v1/cite/styles', body);

describe('listing the whole catalogue', () => {
  // About 110 requests: the timeout catches a hang, sized far above what they take on a busy machine.
  it(`gives every style once, following has_more page by page at ${STYLES_RESULTS_MAX} a page`, {
    timeout: 300_000,
  }, async () => {
    const seen: string[] = [];
    let total = 0;
    for (let page = 0; ; page++) {
      const reply = await styles({ results: STYLES_RESULTS_MAX, page });
      expect(reply.status, `page ${page}: ${reply.text}`).toBe(200);
      const data = reply.json.data;
      total = data.total_styles;
      seen.push(...data.styles.map((style: { id: string }) => style.id));
      if (!data.has_more) break;
      expect(data.styles).toHaveLength(STYLES_RESULTS_MAX);
    }
    expect(total).toBeGreaterThan(100 * STYLES_RESULTS_MAX);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('counts the catalogue as docs/citations.md says', async () => {
    const guide = readFileSync(new URL('../../docs/citations.md', import.meta.url), 'utf8');
    const said = /`total_styles` \(([\d,]+)\)/.exec(guide)?.[1];
    expect(said, 'docs/citations.md: `total_styles` (N)').toBeDefined();
    expect(Number(said?.replace(/,/g, ''))).toBe((await styles({})).json.data.total_styles);
    expect(guide).toContain(`pages 0–99 of 100 used to stop ${(await styles({})).json.data.total_styles - 10_000} styles short`);
  });

  it('answers page 100, which page 99 said was there', async () => {
    const ninetyNine = await styles({ results: STYLES_RESULTS_MAX, page: 99 });
    expect(ninetyNine.json.data.has_more).toBe(true);
    const hundred = await styles({ results: STYLES_RESULTS_MAX, page: 100 });
    expect(hundred.status, hundred.text).toBe(200);
    expect(hundred.json.data.styles).toHaveLength(STYLES_RESULTS_MAX);
  });

  it('reaches the last style one a page, says no more there, and answers an empty page past the end', async () => {
    const { total_styles: total } = (await styles({ results: 1 })).json.data;
    expect(STYLES_LAST_PAGE + 1, 'every style can be reached at one a page').toBeGreaterThanOrEqual(total);
    const last = await styles({ results: 1, page: total - 1 });
    expect(last.status, last.text).toBe(200);
    expect(last.json.data.styles).toHaveLength(1);
    expect(last.json.data.has_more).toBe(false);
    const past = await styles({ results: 1, page: total });
    expect(past.json.data).toMatchObject({ styles: [], has_more: false });
  });

  it(`refuses a page past ${STYLES_LAST_PAGE}, naming the field`, async () => {
    const reply = await styles({ page: STYLES_LAST_PAGE + 1 });
    expect(reply.status).toBe(400);
    expect(reply.json.error.details).toBe(`page: must be an integer from 0 to ${STYLES_LAST_PAGE}`);
  });
});
