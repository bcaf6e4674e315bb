/**
 * How many workers a job queue runs at once, from the pace of the sources they wait on (docs/decisions.md
 * §27): enough to keep Crossref's pace busy while each waits for its answers, and no more, since a worker
 * beyond that only waits for a slot (and is paid for waiting). A worker has CROSSREF_CONCURRENCY lookups
 * in flight and a lookup takes about LOOKUP_SECONDS, so one worker starts about CROSSREF_CONCURRENCY /
 * LOOKUP_SECONDS lookups a second. SQS's event source mapping takes at least 2.
 */

/** A Crossref lookup's time, start to answer, as planned for: Crossref's answers mostly take under a second. */
export const LOOKUP_SECONDS = 1;

/** The fewest workers SQS's event source mapping allows (ScalingConfig.MaximumConcurrency). */
export const MIN_WORKERS = 2;

/** The most the stack ever runs, whatever the pace. */
export const MAX_WORKERS = 20;

/**
 * Workers for a pace of `lookupsPerSecond` with `inFlight` lookups each, under the source's concurrency limit
 * for the deployment (`deploymentInFlight`, Crossref's: 1 in its public pool, 5 in its polite one): lookups
 * beyond that limit would only wait for a room, so the workers are as many as keep either busy, the
 * stricter of the two.
 */
export function workerConcurrency(
  lookupsPerSecond: number,
  inFlight: number,
  deploymentInFlight = Number.POSITIVE_INFINITY,
): number {
  const busy = Math.min(lookupsPerSecond * LOOKUP_SECONDS, deploymentInFlight);
  return Math.min(MAX_WORKERS, Math.max(MIN_WORKERS, Math.ceil(busy / inFlight)));
}
