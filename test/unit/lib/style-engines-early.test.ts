/**
 * A request that asks for styles beyond the five has their engines built while its lookups are on the
 * network, not after they are answered (style-engines.ts, `prepareStyleEngines`): POST /v1/cite/resolve and
 * POST /v1/cite/check are run here against a Crossref and a DataCite that hold every answer until the asked
 * style's engine is built. Were the engine built only once the answers came, none would be built while they
 * are held, and the wait below would end without one. Each engine also renders a warm-up record while the
 * answers are held, so that the first real record runs compiled code.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const held: ServerResponse[] = [];
/** Lookups the service gave up on while they were held (its timeout): none may have been when an engine is built. */
let givenUp = 0;
const server = createServer((_request, response) => {
  held.push(response);
  response.on('close', () => {
    if (!response.writableEnded) givenUp++;
  });
});
const release = () => {
  for (const response of held.splice(0)) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: 'ok', message: { 'total-results': 0, items: [] }, data: [] }));
  }
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The configuration is read once, as the modules load: set before their first import here.
  process.env.CROSSREF_BASE_URL = url;
  process.env.DATACITE_BASE_URL = url;
  // Held lookups wait as long as a lookup may: the engine must be built before any is answered or given up.
  process.env.CROSSREF_TIMEOUT_MS = '28000';
  process.env.CROSSREF_BUDGET_MS = '28000';
});
afterAll(async () => {
  release();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Runs `start` and waits until a lookup is held and, while it is, one more engine is built and a record
 * rendered with it (its warm-up), and, with `fiveWarmedUp`, the five formats' engines warmed up too; then answers.
 */
async function builtWhileHeld(styles: string[], start: () => Promise<unknown>, fiveWarmedUp = false): Promise<void> {
  const [{ keptStyleEngines, styleWarmUpRenders }, { citationWarmUpRenders }] = await Promise.all([
    import('../../../lib/citations/render/style-engines.js'),
    import('../../../lib/citations/render/render.js'),
  ]);
  const before = keptStyleEngines();
  const warmedBefore = styleWarmUpRenders();
  const answer = start();
  await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 60_000, interval: 20 });
  // Well before the lookups' 28 s: on a machine many times slower than a quiet one, a build takes seconds.
  await vi.waitFor(() => expect(keptStyleEngines()).toBe(before + styles.length), { timeout: 20_000, interval: 20 });
  await vi.waitFor(() => expect(styleWarmUpRenders()).toBe(warmedBefore + styles.length), { timeout: 20_000, interval: 20 });
  // Five kinds of work, each in the five formats, one render a turn.
  if (fiveWarmedUp) await vi.waitFor(() => expect(citationWarmUpRenders()).toBe(25), { timeout: 20_000, interval: 20 });
  expect(givenUp).toBe(0);
  expect(held.length).toBeGreaterThan(0);
  release();
  // Later lookups (a DataCite one after a Crossref miss) are answered as they come.
  const answering = setInterval(release, 10);
  try {
    await answer;
  } finally {
    clearInterval(answering);
  }
}

describe('the asked styles’ engines', () => {
  it('are built while POST /v1/cite/resolve looks its references up', async () => {
    const [{ citeReferences }, { requestSchema }] = await Promise.all([
      import('../../../lib/citations/resolve/cite.js'),
      import('../../../functions/cite-resolve.js'),
    ]);
    const request = requestSchema.parse({ references: ['10.1111/ele.14024'], styles: ['ieee'] });
    await builtWhileHeld(['ieee'], () => citeReferences(request, { deadline: Date.now() + 60_000 }), true);
  }, 180_000);

  it('are built while POST /v1/cite/check looks its references up', async () => {
    const [{ checkList }, { requestSchema }] = await Promise.all([
      import('../../../lib/citations/check/answer.js'),
      import('../../../functions/cite-check.js'),
    ]);
    const request = requestSchema.parse({ references: ['10.1111/ele.14024'], styles: ['nature'] });
    await builtWhileHeld(['nature'], () => checkList(request, { deadline: Date.now() + 60_000 }));
  }, 180_000);
});
