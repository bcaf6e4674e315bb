/**
 * Where a pace's state (rules.ts, PaceState) is kept: one contract, two adapters. The memory store keeps it
 * in this process (the local server, the tests, and a container's fallback while the table does not
 * answer); the DynamoDB store (dynamo-store.ts) keeps it in one item per upstream that every container of
 * the deployment reads and writes, so that together they keep the upstream's published rate. Both apply
 * the same change functions (rules.ts): a store only reads, and writes when nothing changed meanwhile.
 */
import { EMPTY_STATE, type PaceState } from './rules.js';

/** What a change of the state computes: the next state (undefined: nothing to write) and its result. */
export type PaceChange<T> = (state: PaceState) => { next: PaceState | undefined; result: T };

export interface PaceStore {
  /**
   * Applies `change` to the state kept under `key` as one atomic step: reads the state, computes the next
   * one, and writes it only if no other writer wrote since the read (else reads and computes again).
   * Answers the result of the change that was written. Rejects with PaceStoreUnavailable when the store
   * cannot be reached or stays contended.
   */
  update<T>(key: string, change: PaceChange<T>): Promise<T>;
}

/** The store could not apply a change in time: the caller falls back to its own memory. */
export class PaceStoreUnavailable extends Error {
  override name = 'PaceStoreUnavailable';
}

/** The memory store: exact within one process; its changes run synchronously, so none can come between. */
export function createMemoryPaceStore(): PaceStore & { clear(): void } {
  const states = new Map<string, PaceState>();
  return {
    async update(key, change) {
      const { next, result } = change(states.get(key) ?? EMPTY_STATE);
      if (next) states.set(key, next);
      return result;
    },
    clear: () => states.clear(),
  };
}
