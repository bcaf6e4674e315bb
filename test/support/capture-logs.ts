/**
 * Test setup: the service's JSON log lines (Powertools writes them straight to stdout, and warnings and
 * errors to stderr) are kept in `capturedLogLines` instead of being printed, so tests can assert on them
 * and the suite can check that no key ever reached a log line. CloudWatch EMF metric records (Powertools
 * Metrics, lines that start with {"_aws") are kept in `capturedMetricLines` the same way.
 */
export const capturedLogLines: string[] = [];
export const capturedMetricLines: string[] = [];

function capture(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.startsWith('{"level"')) {
      capturedLogLines.push(...text.split('\n').filter(Boolean));
      return true;
    }
    if (text.startsWith('{"_aws"')) {
      capturedMetricLines.push(...text.split('\n').filter(Boolean));
      return true;
    }
    return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof stream.write;
}

capture(process.stdout);
capture(process.stderr);
