/**
 * Bounded concurrency without a dependency: a fixed pool of workers pulls the next item until none are
 * left. With `limit` at least the number of items, every call starts in the same tick, so the batch
 * takes about as long as its slowest call.
 */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight and settles every one: a rejection never
 * stops the others, and the results come back in the order of `items`.
 */
export async function mapSettled<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await fn(items[index] as T, index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A pool of `limit` slots: each call runs `fn` once a slot is free, in the order the calls were made, so
 * that work discovered late (a second lookup once a first has answered) waits its turn with the rest.
 */
export function createLimiter(limit: number): <R>(fn: () => Promise<R>) => Promise<R> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  // A slot freed while calls wait passes straight to the first of them: none can overtake it.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return async <R>(fn: () => Promise<R>) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}
