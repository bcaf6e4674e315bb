/**
 * The budget's windows, in UTC: the deployment's hour and month, and each client's hour and day. Each
 * window is one counter item whose key names the window, so a new hour starts at zero with no reset job,
 * and the item expires by TTL a while after its window ends. Pure functions of a clock value.
 */

/** `hour` and `month` are the deployment's; `key-hour` and `day` a client key's own. */
export type WindowKind = 'hour' | 'month' | 'key-hour' | 'day';

export interface BudgetWindow {
  kind: WindowKind;
  /**
   * The counter item's key, e.g. `hour#2026-11-23T21`, `month#2026-11`, `hour#2026-11-23T21#client#alice`,
   * `day#2026-11-23#client#alice`.
   */
  key: string;
  /** Most searches the window allows. */
  limit: number;
  /**
   * A client's window whose limit is its default share of the deployment's budget (the key sets none of
   * its own): the deployment's limit it is a share of. Absent: the key's own limit, or the deployment's.
   */
  shareOf?: number;
  /** Epoch ms at which the window starts and ends. */
  startsAt: number;
  endsAt: number;
}

// Items outlive their window by a day, so a clock a little off never reads an expired item as a fresh zero.
const KEEP_AFTER_END_SECONDS = 86_400;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function hourWindow(now: number, limit: number): BudgetWindow {
  const d = new Date(now);
  const startsAt = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
  const key = `hour#${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}`;
  return { kind: 'hour', key, limit, startsAt, endsAt: startsAt + 3_600_000 };
}

export function monthWindow(now: number, limit: number): BudgetWindow {
  const d = new Date(now);
  const startsAt = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const endsAt = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { kind: 'month', key: `month#${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`, limit, startsAt, endsAt };
}

/** A client's hour: the deployment's hour, counted for one key. */
export function keyHourWindow(now: number, client: string, limit: number): BudgetWindow {
  const hour = hourWindow(now, limit);
  return { ...hour, kind: 'key-hour', key: `${hour.key}#client#${client}` };
}

/** A client's day. The name is the key's name from the client key secret, never the key itself. */
export function dayWindow(now: number, client: string, limit: number): BudgetWindow {
  const d = new Date(now);
  const startsAt = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return { kind: 'day', key: `day#${day}#client#${client}`, limit, startsAt, endsAt: startsAt + 86_400_000 };
}

/** The item's TTL attribute (epoch seconds). */
export function expiresAtSeconds(window: BudgetWindow): number {
  return Math.ceil(window.endsAt / 1000) + KEEP_AFTER_END_SECONDS;
}

/** Whole seconds until the window resets, at least 1: the Retry-After of a refusal. */
export function secondsUntilReset(window: BudgetWindow, now: number): number {
  return Math.max(1, Math.ceil((window.endsAt - now) / 1000));
}

/** "this hour", "this month", "today" — for messages. */
export function windowWords(kind: WindowKind): string {
  return kind === 'month' ? 'this month' : kind === 'day' ? 'today' : 'this hour';
}

/** Whether the window is a client key's own (its hour or day), not the deployment's. */
export function isKeyWindow(window: BudgetWindow): boolean {
  return window.kind === 'key-hour' || window.kind === 'day';
}

/** Days in the window's UTC month. */
export function daysInMonth(now: number): number {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
}
