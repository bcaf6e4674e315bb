/**
 * One pace per free record source (Crossref, DataCite) for the whole container, whatever the requests:
 * the source's rate (configured: at most `n` lookups start in any window of `n / rate` seconds), the
 * stricter pace the source states in its answers (`x-rate-limit-limit` per `x-rate-limit-interval`, as
 * Crossref sends), and a pause for as long as a 429 asks (`Retry-After`, seconds or an HTTP date; else one
 * interval). A lookup that would start in a pause, or past its deadline, is not sent: its paper goes
 * without the record and is cited from the index's own record, saying why (a refusal, never a failure of
 * the request). Clock and all: pure arithmetic on `now`, so tests drive it with their own times.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../errors.js';

/** At most `limit` starts in any `ms` milliseconds. */
class Window {
  private readonly starts: number[] = [];
  constructor(
    readonly limit: number,
    readonly ms: number,
  ) {}
  /** The earliest start at or after `at` that keeps the window. */
  earliest(at: number): number {
    const oldest = this.starts.length >= this.limit ? this.starts[this.starts.length - this.limit] : undefined;
    return oldest === undefined ? at : Math.max(at, oldest + this.ms);
  }
  take(at: number): void {
    this.starts.push(at);
    if (this.starts.length > this.limit) this.starts.splice(0, this.starts.length - this.limit);
  }
}

/** The window of a rate: `n` starts per `n / rate` seconds, `n` the whole number of starts a second allows (at least 1). */
export function rateWindow(perSecond: number): { limit: number; ms: number } {
  const limit = Math.max(1, Math.floor(perSecond));
  return { limit, ms: (limit / perSecond) * 1_000 };
}

/** "1s", "60s", "1m", "500ms" → milliseconds; undefined for anything else. */
export function intervalMs(value: string | undefined): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  return Number(match[1]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1_000);
}

/** A `Retry-After` value as milliseconds from `now`: delta-seconds or an HTTP date; undefined when neither. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[a-z]/i.test(text) ? undefined : Math.max(0, date - now);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Why a lookup was never sent: its turn at the source's pace came after its deadline. Never "did not answer
 * in time", which is what a lookup that was sent and timed out says.
 */
export function notSentInTime(source: string): AppError {
  return new AppError('UPSTREAM_TIMEOUT', {
    details: `${source} was not asked: the request's time ran out before its turn at ${source}'s pace`,
  });
}

/** Starts a pace remembers for starts(). */
const STARTS_KEPT = 200;

export class Pace {
  private configured: Window;
  private stated: Window | undefined;
  /** Until when the source asked for a pause (429). */
  pausedUntil = 0;
  /** Until when the source's own `Retry-After` asked for one: said in refusals, so a client knows when to ask again. */
  private retryAfterUntil = 0;
  /** The last starts given (at most STARTS_KEPT), oldest first: what the pace kept, for the tests and logs. */
  private readonly given: number[] = [];

  /** `source` names it in refusals ("Crossref"); `perSecond` is the configured rate. */
  constructor(
    readonly source: string,
    private perSecond: number,
  ) {
    const { limit, ms } = rateWindow(perSecond);
    this.configured = new Window(limit, ms);
  }

  /** The configured rate, in lookups per second. */
  get rate(): number {
    return this.perSecond;
  }

  /** Learns the stated pace from an answer's headers, and pauses on a 429 as long as it asks. */
  note(status: number, headers: IncomingHttpHeaders, now: number): void {
    const limit = Number(header(headers, 'x-rate-limit-limit'));
    const interval = intervalMs(header(headers, 'x-rate-limit-interval'));
    if (Number.isInteger(limit) && limit > 0 && interval !== undefined && interval > 0) {
      if (this.stated?.limit !== limit || this.stated.ms !== interval) this.stated = new Window(limit, interval);
    }
    if (status === 429) {
      const asked = retryAfterMs(header(headers, 'retry-after'), now);
      if (asked !== undefined) this.retryAfterUntil = Math.max(this.retryAfterUntil, now + asked);
      this.pausedUntil = Math.max(this.pausedUntil, now + (asked ?? interval ?? 1_000));
    }
  }

  /**
   * The source's `Retry-After`, passed on: the words that say when to ask again, and the header a refusal
   * carries; nothing when the source gave none (or its time has passed).
   */
  retryAfter(now: number): { said: string; headers?: Record<string, string> } {
    if (now >= this.retryAfterUntil) return { said: '' };
    const seconds = Math.ceil((this.retryAfterUntil - now) / 1_000);
    const until = new Date(this.retryAfterUntil).toISOString().replace(/\.\d+Z$/, 'Z');
    return { said: ` (Retry-After: ask again after ${until})`, headers: { 'Retry-After': String(seconds) } };
  }

  /** Why a lookup must not be sent now: a pause the source asked for; undefined when it may. */
  refusal(now: number): AppError | undefined {
    if (now >= this.pausedUntil) return undefined;
    const { said, headers } = this.retryAfter(now);
    return new AppError('UPSTREAM_QUOTA_EXCEEDED', {
      details: `${this.source} asked for a pause (HTTP 429); not looked up${said}`,
      headers,
    });
  }

  /**
   * When this lookup may start (the start is taken), or why it must not be sent. A lookup that waits for its
   * start asks refusal() again when it is due: the source may have asked for a pause meanwhile.
   */
  slot(deadline: number, now: number): { startAt: number } | { refused: AppError } {
    const paused = this.refusal(now);
    if (paused) return { refused: paused };
    const startAt = Math.max(this.configured.earliest(now), this.stated?.earliest(now) ?? now);
    if (startAt >= deadline) return { refused: notSentInTime(this.source) };
    this.configured.take(startAt);
    this.stated?.take(startAt);
    this.given.push(startAt);
    if (this.given.length > STARTS_KEPT) this.given.shift();
    return { startAt };
  }

  /** The starts given since the last reset (the last STARTS_KEPT), oldest first. */
  starts(): number[] {
    return [...this.given];
  }

  /** Forgets what the source said and every start (the tests, which play several sources in one process). */
  reset(perSecond = this.perSecond): void {
    this.perSecond = perSecond;
    const { limit, ms } = rateWindow(perSecond);
    this.configured = new Window(limit, ms);
    this.stated = undefined;
    this.pausedUntil = 0;
    this.retryAfterUntil = 0;
    this.given.length = 0;
  }
}
