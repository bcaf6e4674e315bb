/**
 * The five formats' engines, once built, render one record of each kind of work in every format in the
 * background, one render a turn (render.ts, `warmUp`): the first real record then runs compiled code, and
 * an answer that arrives meanwhile is read between two renders, not after all of them. Counted, not timed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  citationRenderer,
  citationWarmUpRenders,
  prepareCitationRenderer,
  warmUp,
} from '../../../lib/citations/render/render.js';
import { capturedLogLines } from '../../support/capture-logs.js';

describe('the five formats’ warm-up', () => {
  it('runs after the build, a render a turn, and is done when the start-up preparation says so', async () => {
    expect(citationWarmUpRenders()).toBe(0);
    const renderer = await citationRenderer();
    // A callback queued now (an answer read off a socket, say) runs before the warm-up is over.
    let seenByTheNextTurn = -1;
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        seenByTheNextTurn = citationWarmUpRenders();
        resolve();
      }),
    );
    expect(seenByTheNextTurn).toBeLessThan(2);
    // A record rendered meanwhile is rendered whole: the warm-up's renders do not mix with it.
    const citations = renderer.render({
      id: 'x',
      type: 'article-journal',
      title: 'Between two warm-up renders',
      author: [{ family: 'Moreno', given: 'Ana' }],
      'container-title': 'Journal of Examples',
      issued: { 'date-parts': [[2020]] },
    });
    expect(Object.keys(citations).sort()).toEqual(['APA', 'Chicago', 'Harvard', 'MLA', 'Vancouver']);
    expect(citations.APA).toMatch(/^Moreno, A\. \(2020\)\. Between two warm-up renders\./);
    // Start-up's preparation waits for the whole warm-up: five kinds of work in five formats.
    await prepareCitationRenderer();
    expect(citationWarmUpRenders()).toBe(25);
    // Built once, warmed once.
    await citationRenderer();
    await nextTurn();
    expect(citationWarmUpRenders()).toBe(25);
  }, 120_000);

  it('never rejects: a render that throws is logged, since nobody awaits a warm-up a request started', async () => {
    const failing = {
      render: () => {
        throw new Error('a style that cannot render');
      },
    };
    await expect(warmUp(failing)).resolves.toBeUndefined();
    expect(capturedLogLines.some((line) => line.includes('citation styles not warmed up'))).toBe(true);
  });
});
