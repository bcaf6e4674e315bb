/**
 * Test setup: the service's JSON log lines (Powertools writes them straight to stdout) are kept in
 * `capturedLogLines` instead of being printed, so tests can assert on them and the suite can check
 * that no key ever reached a log line.
 */
export const capturedLogLines: string[] = [];

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (text.startsWith('{"level"')) {
    capturedLogLines.push(...text.split('\n').filter(Boolean));
    return true;
  }
  return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;
