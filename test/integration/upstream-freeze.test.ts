/**
 * A stall never pays twice (docs/budget-and-caching.md, "A stall never pays twice"): the process is frozen
 * (its event loop blocked, as a starved or suspended container is) right after the upstream's answer has
 * been handed to the socket, for longer than the attempt's timeout. The overdue timeout timer then runs
 * before the socket is read; the answer that arrived must still be used, not thrown away and paid for again.
 * The freeze lasts longer than the timeout by construction (it starts after the timer did), so the verdict
 * does not depend on the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { useService } from '../support/service.js';

const TIMEOUT_MS = 300;
const running = useService({ UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), SEARCHES_PER_HOUR: '100' });

/** Blocks this process (the service runs in it) for `ms`, without spinning. */
function freeze(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('a process frozen past the timeout after the answer arrived', () => {
  it('uses the answer: 1 upstream call, 1 search counted', async () => {
    running.upstream.afterAnswer = () => freeze(TIMEOUT_MS + 500);
    const reply = await running.service.post('/v1/web-search/alpha', { q: 'frozen after the answer' });
    expect(reply.status).toBe(200);
    expect(reply.json.data.organic_results.length).toBeGreaterThan(0);
    expect(running.upstream.calls()).toBe(1);
    expect((await running.service.post('/v1/usage', {})).json.data.hour.used).toBe(1);
  });

  it('still times out an upstream that sent nothing, and counts nothing', async () => {
    running.upstream.queue('hang', 'hang', 'hang');
    const reply = await running.service.post('/v1/web-search/alpha', { q: 'silent upstream' });
    expect(reply.status).toBe(504);
    expect(running.upstream.calls()).toBe(3);
    expect((await running.service.post('/v1/usage', {})).json.data.hour.used).toBe(1);
  });
});
