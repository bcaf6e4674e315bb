/**
 * A request refused because another request's reservation is still in flight is told to retry soon, not
 * when the hour resets (docs/decisions.md §18): the first request plans two searches (web search alpha
 * with `fetch_ai_overview`) and its search is held at the upstream until the test lets it go; the second,
 * planning two as well, meets a budget of 3 with 2 held. Once the first answers (its page holds no overview
 * token, so it gives its second search back), the second fits. The service runs in this process, over real
 * HTTP; nothing here depends on the machine's speed: the upstream holds the first search as long as needed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useService } from '../support/service.js';
import { clearOfWindowEdges, msToHourEnd } from '../support/window-edges.js';

const HOURLY = 3;
const DEADLINE_MS = 25_000;

beforeAll(() => clearOfWindowEdges(120_000), 150_000);
const running = useService({
  SEARCHES_PER_HOUR: String(HOURLY),
  REQUEST_DEADLINE_MS: String(DEADLINE_MS),
});

const withOverview = (q: string) => running.service.post('/v1/web-search/alpha', { q, fetch_ai_overview: true });

describe('a refusal caused by a reservation still in flight', () => {
  it('says to retry in seconds, within the holding request’s deadline, not at the end of the hour; then the request fits', async () => {
    let release = () => {};
    running.upstream.queue({ until: new Promise<void>((resolve) => (release = resolve)) });
    const first = withOverview('held at the upstream');
    // Its search has reached the upstream, so its two searches are reserved.
    for (let i = 0; i < 10_000 && running.upstream.calls() < 1; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(running.upstream.calls()).toBe(1);

    const before = Date.now();
    const refused = await withOverview('meanwhile');
    expect(refused.status).toBe(429);
    expect(refused.json.error.code).toBe('BUDGET_EXHAUSTED');
    expect(refused.json.error.details).toMatch(
      /^The deployment's budget: 1 of 3 searches left this hour, fewer than the 2 this request can make \(.*\); 2 of the searches counted are held by requests still in progress, which give back what they do not use by \S+ at the latest: retry in 2 s \(it resets at \S+\)\./,
    );
    const seconds = Number(refused.headers.get('retry-after'));
    // No request of several searches has finished in this process yet: the default 2 s. The hour would
    // have been the rest of it.
    expect(seconds).toBe(2);
    expect(seconds).toBeLessThan(DEADLINE_MS / 1000);
    expect(msToHourEnd(before) / 1000).toBeGreaterThan(60);
    expect(running.upstream.calls()).toBe(1);

    release();
    expect((await first).status).toBe(200);
    // The page held no overview token: the second search was given back, and the request fits now.
    const fits = await withOverview('after the first answered');
    expect(fits.status).toBe(200);
    expect((await running.service.post('/v1/usage', {})).json.data.hour).toMatchObject({ used: 2, left: 1 });
  }, 60_000);
});
