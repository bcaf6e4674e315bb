/**
 * One request's spending (docs/budget-and-caching.md, "What a request reserves"). A handler that can make
 * several paid searches says at most how many (`plan`), so that its first paid search reserves them all
 * at once, all or nothing: a request the budget cannot cover is refused before it spends anything, instead
 * of spending what is left and answering half. Each search then takes one unit from what the request
 * holds; a search the provider does not bill (it failed, or no answer came) puts its unit back, so that
 * the retries of one search never count more than the one search the provider bills; and when the request
 * is over, whatever it holds and did not use is given back. A search asked for after that is never sent.
 *
 * Without a plan, each search reserves its own unit as it comes (one search is what most requests make).
 */
import { AppError } from '../errors.js';
import type { Ask, Budget, BudgetScope, Claim } from './budget.js';

/** One search's unit: `done(true)` when the provider bills it, `done(false)` gives it back to the request. */
export interface SearchUnit {
  done(billed: boolean): void;
}

export interface RequestSpend {
  /**
   * The most paid searches this request makes, from now on, every cache missing, with the way to ask for
   * fewer (shown when the budget cannot cover them).
   */
  plan(searches: number, ask?: Ask): void;
  /** A unit for one search about to be sent; rejects with the budget's refusal, or once the request is over. */
  take(): Promise<SearchUnit>;
  /** The request is over: nothing more is sent, and what was not used is given back. */
  close(): Promise<void>;
  readonly closed: boolean;
}

interface Held {
  claim: Claim;
  free: number;
  used: number;
  inUse: number;
}

/** After the request answered: a search that would start now is not sent. */
export function answeredAlready(): AppError {
  return new AppError('UPSTREAM_TIMEOUT', {
    details: 'The request was already answered or past its deadline; the search was not sent',
  });
}

/**
 * `hits`: how many of the request's lookups the caches answered so far. A planned search answered by a
 * cache costs nothing, so it is not reserved.
 */
export function createRequestSpend(budget: Budget, scope: BudgetScope, hits: () => number = () => 0): RequestSpend {
  let planned = 0;
  let ask: Ask | undefined;
  let started = 0;
  let closed = false;
  const held: Held[] = [];
  let reserving: Promise<void> | undefined;

  const unitOf = (from: Held): SearchUnit => {
    let settled = false;
    return {
      done(billed) {
        if (settled) return;
        settled = true;
        from.inUse -= 1;
        if (billed) from.used += 1;
        else from.free += 1;
      },
    };
  };

  return {
    plan(searches, given) {
      planned = searches;
      ask = given;
    },
    async take() {
      const first = started;
      started += 1;
      for (;;) {
        if (closed) throw answeredAlready();
        const from = held.find((h) => h.free > 0);
        if (from) {
          from.free -= 1;
          from.inUse += 1;
          return unitOf(from);
        }
        if (reserving) {
          await reserving;
          continue;
        }
        // This search and the planned ones still to come, less those the caches answered.
        const wanted = Math.max(1, planned - hits() - first);
        reserving = budget
          .claim(scope, wanted, wanted > 1 ? ask : undefined)
          .then((claim) => {
            held.push({ claim, free: claim.n, used: 0, inUse: 0 });
          })
          .finally(() => {
            reserving = undefined;
          });
        await reserving;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      // A search still in flight may be billed: counted, never given back on a guess.
      await Promise.all(held.map((h) => h.claim.close(h.used + h.inUse)));
    },
    get closed() {
      return closed;
    },
  };
}
