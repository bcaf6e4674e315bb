/**
 * fetch_ai_overview while the budget's counter cannot be reached (its table's endpoint refuses every
 * connection): the check for room before the first search cannot read the counter, so it leaves the
 * decision to the searches' own reservations, which apply the deployment's choice (docs/decisions.md §8):
 * by default they search on within the container's allowance, and both searches are made.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useService } from '../support/service.js';

const harness = useService({
  BUDGET_TABLE_NAME: 'budget-unreachable',
  AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  BUDGET_TIMEOUT_MS: '200',
  TABLE_PREPARE_TIMEOUT_MS: '200',
});

type Json = Record<string, unknown>;
const GOOGLE = JSON.parse(
  readFileSync(new URL('../fixtures/serpapi/google-2026-01-03-ai-overview.json', import.meta.url), 'utf8'),
) as Json;
const overview = (GOOGLE.related_questions as Json[])[2] as Json;

describe('fetch_ai_overview with the budget counter down (fail open, the default)', () => {
  it('makes both searches: the room check cannot read the counter and does not refuse in its place', async () => {
    harness.upstream.respond((query) =>
      query.get('engine') === 'google_ai_overview'
        ? { json: { ai_overview: { text_blocks: overview.text_blocks, references: overview.references } } }
        : { json: { ...GOOGLE, ai_overview: { page_token: 'T0K' } } },
    );
    const reply = await harness.service.post('/v1/web-search/alpha', { q: 'coffee', fetch_ai_overview: true, no_cache: true });
    expect(reply.status, reply.text).toBe(200);
    expect(harness.upstream.requests.map((query) => query.get('engine'))).toEqual(['google', 'google_ai_overview']);
    expect(reply.json.data.ai_overview.state).toBe('fetched');
  });
});
