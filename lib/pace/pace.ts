/**
 * A pace: how a caller keeps one upstream's published rate, whatever calls it and in whichever container.
 * `slot()` answers when a call may start (the start is taken) or refuses it when that start would not come
 * before the call's deadline (a synchronous request: its paper goes without the record); `acquire()` waits
 * for the start (a job waits as long as its deadline allows). `note()` learns from each answer the pace the
 * upstream states and the pause a 429 asks for, for every container that shares the store.
 *
 * Under a concurrency limit (`inFlight`, or one the upstream states), a call that asks with a hold keeps its
 * room in flight until `finish()`; a call that finds every room held waits, and asks again as soon as a call
 * of this container ends, else every `pollMs` (another container's call may have ended), until its deadline.
 *
 * The calls a container asks for while a change is in flight are given their starts together in the next
 * change: one round trip to the store for a page's lookups, first come, first served. A store that does
 * not answer (store.ts, PaceStoreUnavailable) is left alone for `retryMs` while this container keeps the
 * pace in its own memory: the upstream's rate then holds per container, as it did before the pace was
 * shared, and `onUnavailable` says so (a log line).
 */

import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '../errors.js';
import {
  type Ask,
  EMPTY_STATE,
  inFlightInForce,
  noted,
  type PaceState,
  type RoomClaim,
  type Rule,
  rateRule,
  released,
  type Turn,
  takeTurns,
  WINDOW_MARGIN,
} from './rules.js';
import { createMemoryPaceStore, type PaceChange, type PaceStore, PaceStoreUnavailable } from './store.js';

export interface PaceOptions {
  /** What the store keeps this pace under: the upstream's name in lower case ("crossref"). */
  key: string;
  /** The upstream as named in a refusal ("Crossref"). */
  source: string;
  /** The configured rate, in calls per second. */
  perSecond: number;
  /** The most calls in flight at once for the deployment (the upstream's concurrency limit); none when undefined. */
  inFlight?: number;
  /** How often a call waiting for a room in flight reads the store again. */
  pollMs?: number;
  /** Where the state is kept: shared by the deployment (dynamo-store.ts) or this process's memory. */
  store: PaceStore;
  /** Where it is kept while `store` does not answer; default: a memory store of this pace's own. */
  fallback?: PaceStore;
  /** How long `store` is left alone once it did not answer. */
  retryMs?: number;
  onUnavailable?: (error: PaceStoreUnavailable) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/** A call's turn as a caller reads it: its start, or the refusal to answer with. */
export type Slot = { startAt: number } | { refused: AppError };

/** A turn as the pump gives it: a start or a refusal, never `full` (a call finding no room waits). */
type GivenTurn = Exclude<Turn, { full: number }>;

/** A call waiting for its turn. */
type Waiter = { ask: Ask; resolve: (turn: GivenTurn) => void };

/**
 * Why a call was never sent: its turn at the upstream's pace came after its deadline. Never "did not answer
 * in time", which is what a call that was sent and timed out says.
 */
export function notSentInTime(source: string): AppError {
  return new AppError('UPSTREAM_TIMEOUT', {
    details: `${source} was not asked: the request's time ran out before its turn at ${source}'s pace`,
  });
}

/** How many times a call whose timer fired past its window's margin asks for a new turn before it goes anyway. */
const OVERSLEPT_ASKS = 3;

/** Starts a pace remembers for starts(). */
const GIVEN_KEPT = 200;

export class Pace {
  readonly source: string;
  readonly key: string;
  private perSecond: number;
  private rule: Rule;
  private readonly inFlight?: number;
  private readonly pollMs: number;
  private readonly store: PaceStore;
  private readonly fallback: PaceStore;
  private readonly retryMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<unknown>;
  private readonly onUnavailable?: (error: PaceStoreUnavailable) => void;
  /** The state as this container last read or wrote it. */
  private known: PaceState = EMPTY_STATE;
  private restingUntil = 0;
  /** Why the store last failed to answer, and how often it did (the tests, a log line). */
  private failures: string[] = [];
  private readonly given: number[] = [];
  private readonly waiting: Waiter[] = [];
  /** The calls that found every room in flight held, in order of asking, until a call ends or the next poll. */
  private readonly full: Waiter[] = [];
  private wakeTimer?: NodeJS.Timeout;
  private pumping = false;

  constructor(options: PaceOptions) {
    this.source = options.source;
    this.key = options.key;
    this.perSecond = options.perSecond;
    this.rule = rateRule(options.perSecond);
    this.inFlight = options.inFlight;
    this.pollMs = options.pollMs ?? 50;
    this.store = options.store;
    this.fallback = options.fallback ?? createMemoryPaceStore();
    this.retryMs = options.retryMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => delay(ms));
    this.onUnavailable = options.onUnavailable;
  }

  /** The configured rate, in calls per second. */
  get rate(): number {
    return this.perSecond;
  }

  /** Whether calls are limited in flight (configured, or as the upstream stated): a call then asks with a hold. */
  get limitsInFlight(): boolean {
    return inFlightInForce(this.inFlight, this.known) !== undefined;
  }

  /** Until when the upstream asked for a pause, as this container last heard. */
  get pausedUntil(): number {
    return this.known.pausedUntil;
  }

  /** When a call asking at `at` may start (the start is taken, and the call goes on it), or why it must not be sent. */
  async slot(deadline: number, at: number = this.now(), hold?: RoomClaim): Promise<Slot> {
    const turn = await this.take(deadline, at, hold);
    return 'startAt' in turn ? { startAt: this.went(turn.startAt) } : turn;
  }

  /**
   * Waits for a start before `deadline` and answers it; rejects with the refusal when there is none. A pause
   * the upstream asked for while the call waited sends it back for a start past the pause.
   */
  async acquire(deadline = Number.POSITIVE_INFINITY, hold?: RoomClaim): Promise<number> {
    let overslept: number | undefined;
    for (let asks = 0; ; asks += 1) {
      const turn = await this.take(deadline, this.now(), hold);
      if ('refused' in turn) {
        // A call that overslept its turn and has no other before its deadline goes on that turn, unless paused.
        // It keeps the room its first turn gave it (a refused ask changes nothing), until finish().
        if (overslept !== undefined && this.known.pausedUntil <= this.now()) return this.went(overslept);
        throw turn.refused;
      }
      if (turn.startAt <= this.now()) return this.went(turn.startAt);
      // A timer may fire a little early (timers keep a monotonic clock, the pace the wall clock): a call
      // sent before its start would put one more in the window the upstream counts.
      while (this.now() < turn.startAt) await this.sleep(turn.startAt - this.now());
      // Or late, past the window's margin, when the event loop was busy: sent now, it would arrive with the
      // next window's calls, on time. It asks for a new turn (its start stays taken, unused), a few times at
      // most, so that a loop busy for good still sends (a 429 then pauses the pace), and a request's call
      // still goes when no new turn comes before its deadline.
      if (this.now() - turn.startAt > this.rule.ms * WINDOW_MARGIN && asks < OVERSLEPT_ASKS) {
        overslept = turn.startAt;
        continue;
      }
      // What the store holds now: a pause another container heard while this call waited holds it too.
      await this.change(() => ({ next: undefined, result: undefined }));
      if (this.known.pausedUntil <= this.now()) return this.went(turn.startAt);
    }
  }

  /** A start taken in the store (not yet one a call went on), or why there is none. */
  private take(deadline: number, at: number = this.now(), hold?: RoomClaim): Promise<Slot> {
    return new Promise<GivenTurn>((resolve) => {
      const entry = { ask: { at, deadline, ...(hold ? { hold } : {}) }, resolve };
      // First come, first served: behind calls already waiting for a room, a call waits for the same wake.
      if (this.full.length > 0) this.full.push(entry);
      else {
        this.waiting.push(entry);
        void this.pump();
      }
    }).then((turn) => ('startAt' in turn ? turn : { refused: this.refusalFor(turn.refused, at) }));
  }

  /**
   * The call holding `id` ended: its room in flight is free, and what its answer says (when it had one) is
   * learnt as note() learns it, in the same change. The calls of this container waiting for a room ask
   * again at once. Never rejects.
   */
  async finish(
    id: string | undefined,
    answer?: { status: number; headers: IncomingHttpHeaders },
    now: number = this.now(),
  ): Promise<void> {
    await this.learn(id, answer, now);
    this.wake();
  }

  /**
   * One change of the store: the hold `id` released, and what `answer` teaches the pace (noted()); nothing
   * written when neither changes what this container knows.
   */
  private async learn(
    id: string | undefined,
    answer: { status: number; headers: IncomingHttpHeaders } | undefined,
    now: number,
  ): Promise<void> {
    const learnt = answer ? noted(this.known, answer.status, answer.headers, now) : undefined;
    const holding = id !== undefined && this.known.held?.some((hold) => hold.id === id);
    if (!learnt && !holding) return;
    await this.change((state) => {
      const free = id === undefined ? undefined : released(state, id);
      const next = answer ? noted(free ?? state, answer.status, answer.headers, now) : undefined;
      return { next: next ?? free, result: undefined };
    });
  }

  /** The calls waiting for a room ask again now, before any asking since. */
  private wake(): void {
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (this.full.length === 0) return;
    const now = this.now();
    // Asked again now: a start is never given before the time it is asked for.
    this.waiting.unshift(
      ...this.full.splice(0).map((entry) => ({ ...entry, ask: { ...entry.ask, at: Math.max(entry.ask.at, now) } })),
    );
    void this.pump();
  }

  /** Wakes the calls waiting for a room at the next poll, when the first hold runs out, or at the first deadline. */
  private wakeBy(freed: number): void {
    if (this.wakeTimer) return;
    const deadline = Math.min(...this.full.map((entry) => entry.ask.deadline));
    const at = Math.min(freed, deadline, this.now() + this.pollMs);
    this.wakeTimer = setTimeout(() => this.wake(), Math.max(0, at - this.now()));
    this.wakeTimer.unref?.();
  }

  /** A start a call of this container goes on, kept for starts(). */
  private went(start: number): number {
    this.given.push(start);
    if (this.given.length > GIVEN_KEPT) this.given.shift();
    return start;
  }

  /** Why a call must not be sent now: a pause this container knows of; undefined when it may. */
  refusal(now: number = this.now()): AppError | undefined {
    return now < this.known.pausedUntil ? this.refusalFor('paused', now) : undefined;
  }

  /** Learns from an answer the pace the upstream states, and pauses on a 429 as long as it asks. Never rejects. */
  async note(status: number, headers: IncomingHttpHeaders, now: number = this.now()): Promise<void> {
    await this.learn(undefined, { status, headers }, now);
  }

  /** Why the store did not answer, each time it did not since the last reset, oldest first. */
  storeFailures(): string[] {
    return [...this.failures];
  }

  /**
   * The starts this container's calls went on since the last reset (the last GIVEN_KEPT), oldest first: a
   * start a call overslept and left for a new turn is not among them.
   */
  starts(): number[] {
    return [...this.given];
  }

  /** Forgets every start, stated pace and pause, here and in the store, and takes a new rate (the tests). */
  async reset(perSecond = this.perSecond): Promise<void> {
    this.perSecond = perSecond;
    this.rule = rateRule(perSecond);
    this.given.length = 0;
    this.failures = [];
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.known = EMPTY_STATE;
    this.restingUntil = 0;
    const clear = () => ({ next: EMPTY_STATE, result: undefined });
    await Promise.all([this.store.update(this.key, clear).catch(() => undefined), this.fallback.update(this.key, clear)]);
  }

  /**
   * The upstream's `Retry-After`, passed on: the words that say when to ask again, and the header a refusal
   * carries; nothing when the upstream gave none (or its time has passed).
   */
  retryAfter(now: number = this.now()): { said: string; headers?: Record<string, string> } {
    const until = this.known.retryAfterUntil ?? 0;
    if (now >= until) return { said: '' };
    const seconds = Math.ceil((until - now) / 1_000);
    const at = new Date(until).toISOString().replace(/\.\d+Z$/, 'Z');
    return { said: ` (Retry-After: ask again after ${at})`, headers: { 'Retry-After': String(seconds) } };
  }

  private refusalFor(reason: 'paused' | 'late', now: number): AppError {
    if (reason === 'late') return notSentInTime(this.source);
    const { said, headers } = this.retryAfter(now);
    return new AppError('UPSTREAM_QUOTA_EXCEEDED', {
      details: `${this.source} asked for a pause (HTTP 429); not looked up${said}`,
      headers,
    });
  }

  /** Gives the waiting calls their turns, all those waiting at once in one change, until none waits. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0);
        const turns = await this.change((state) => {
          const { next, turns } = takeTurns(
            state,
            this.rule,
            batch.map((entry) => entry.ask),
            this.inFlight,
          );
          return { next, result: turns };
        });
        let freed = Number.POSITIVE_INFINITY;
        for (const [i, entry] of batch.entries()) {
          const turn = turns[i] as Turn;
          if ('full' in turn) {
            this.full.push(entry);
            freed = Math.min(freed, turn.full);
          } else entry.resolve(turn);
        }
        if (this.full.length > 0) this.wakeBy(freed);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** A change of the state in the store, or in the fallback while the store rests; the state it leaves is known here. */
  private async change<T>(change: PaceChange<T>): Promise<T> {
    const seen: PaceChange<T> = (state) => {
      const outcome = change(state);
      this.known = outcome.next ?? state;
      return outcome;
    };
    if (this.now() >= this.restingUntil) {
      try {
        return await this.store.update(this.key, seen);
      } catch (error) {
        this.restingUntil = this.now() + this.retryMs;
        const unavailable =
          error instanceof PaceStoreUnavailable ? error : new PaceStoreUnavailable(String(error), { cause: error });
        this.failures.push(unavailable.message);
        this.onUnavailable?.(unavailable);
      }
    }
    return this.fallback.update(this.key, seen);
  }
}
