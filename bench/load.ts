/**
 * Load generation with autocannon. Its own histogram keeps whole milliseconds, too coarse for an
 * overhead target of 1 ms, so every response's time (float ms from its `response` event) is kept here
 * and the percentiles are computed from the raw samples.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  amount: number;
}

export interface LoadResult {
  requests: number;
  elapsedMs: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Sends `amount` requests over `connections` keep-alive connections; any error or non-2xx fails the run. */
export function load(options: LoadOptions): Promise<LoadResult> {
  const times = new Float64Array(options.amount);
  let count = 0;
  let failures = 0;
  let firstFailure = '';
  // autocannon ends an `amount` run on its next 1 s tick, so its own duration is useless for a short run;
  // the run spans the first request's start to the last response's end.
  let firstStart = Number.POSITIVE_INFINITY;
  let lastEnd = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body,
        connections: options.connections,
        amount: options.amount,
        timeout: 10,
      },
      (error, result) => {
        const elapsedMs = lastEnd - firstStart;
        if (error) return reject(error);
        if (failures > 0 || result.errors > 0 || result.timeouts > 0) {
          return reject(
            new Error(
              `${options.method ?? 'GET'} ${options.url}: ${failures} non-2xx (${firstFailure}), ${result.errors} errors, ${result.timeouts} timeouts`,
            ),
          );
        }
        const sorted = times.subarray(0, count).sort();
        let sum = 0;
        for (const t of sorted) sum += t;
        resolve({
          requests: count,
          elapsedMs,
          rps: (count / elapsedMs) * 1000,
          p50: percentile(sorted, 50),
          p90: percentile(sorted, 90),
          p99: percentile(sorted, 99),
          mean: sum / count,
          max: sorted[sorted.length - 1] ?? Number.NaN,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      const now = performance.now();
      firstStart = Math.min(firstStart, now - responseTime);
      lastEnd = now;
      if (statusCode < 200 || statusCode > 299) {
        failures += 1;
        firstFailure ||= `HTTP ${statusCode}`;
      }
      if (count < times.length) times[count++] = responseTime;
    });
  });
}
