/**
 * One paced GET of a free record source's JSON (Crossref, DataCite) over node:http(s) (lib/http-get.ts,
 * as the SerpApi client, for the same measured reasons), within the request's deadline and a timeout of
 * its own, no retry: a failure only costs its paper (or reference) the record, and says why.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../config.js';
import { AppError } from '../../errors.js';
import { type HttpAnswer, type HttpFailure, httpGet } from '../../http-get.js';
import { notSentInTime, type Pace } from '../../pace/pace.js';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export interface FetchOptions {
  /** Epoch ms by which the lookup must be over. */
  deadline: number;
  /** One attempt; defaults to CROSSREF_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Answer undefined for a 404 (a record the source does not hold) rather than reject. */
  notFoundIsEmpty?: boolean;
}

/** The User-Agent sent to every free source: who calls, and where to write before blocking (their etiquette). */
export function userAgent(): string {
  const contact = config.CROSSREF_MAILTO ? ` (mailto:${config.CROSSREF_MAILTO})` : '';
  return `${config.POWERTOOLS_SERVICE_NAME}${contact}`;
}

/** The parsed JSON of `url`, paced by `pace`; undefined for a 404 when asked; rejects with an AppError. */
export async function fetchJson(url: string, pace: Pace, options: FetchOptions): Promise<unknown> {
  const source = pace.source;
  const timeoutMs = options.timeoutMs ?? config.CROSSREF_TIMEOUT_MS;
  // Under the source's concurrency limit the lookup holds a room in flight until it ends: at most its
  // timeout and a second (an answer's last bytes, a container frozen mid-call), so that none holds it for good.
  const hold = pace.limitsInFlight ? { id: randomUUID(), ms: timeoutMs + 1_000 } : undefined;
  let outcome: HttpAnswer | HttpFailure;
  try {
    // Waits for this lookup's turn at the source's pace, or rejects when it would not come before the deadline.
    await pace.acquire(options.deadline, hold);
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) throw notSentInTime(source);
    outcome = await httpGet(url, {
      headers: { 'User-Agent': userAgent() },
      timeoutMs: Math.min(timeoutMs, remaining),
      maxBytes: MAX_RESPONSE_BYTES,
      // The cap counts bytes as they arrive, unpacked; a gzip answer's Content-Length counts them packed.
      refuseByLength: false,
      // A refusal's body says nothing the status does not; it is drained unread, so the refusal is answered at once.
      readBody: (status) => status === 200,
    });
  } catch (error) {
    await pace.finish(hold?.id);
    throw error;
  }
  // The room is free, and what the answer says of the pace is learnt, in one change of the store.
  await pace.finish(hold?.id, outcome.ok ? { status: outcome.status, headers: outcome.headers } : undefined);
  if (!outcome.ok) {
    if (outcome.reason === 'timeout') throw new AppError('UPSTREAM_TIMEOUT', { details: `${source} did not answer in time` });
    if (outcome.reason === 'too-large') {
      throw new AppError('UPSTREAM_ERROR', { details: `${source} sent an answer too large to be a record list` });
    }
    throw new AppError('UPSTREAM_ERROR', { details: `Could not reach ${source}`, cause: outcome.cause });
  }
  if (outcome.status === 404 && options.notFoundIsEmpty) return undefined;
  if (outcome.status === 429) {
    const { said, headers } = pace.retryAfter(Date.now());
    throw new AppError('UPSTREAM_QUOTA_EXCEEDED', {
      details: `${source} refused the lookup for rate (HTTP 429)${said}`,
      headers,
    });
  }
  if (outcome.status !== 200) throw new AppError('UPSTREAM_ERROR', { details: `${source} answered HTTP ${outcome.status}` });
  try {
    return JSON.parse(outcome.text);
  } catch (cause) {
    throw new AppError('UPSTREAM_ERROR', { details: `${source} answered with something that is not JSON`, cause });
  }
}
