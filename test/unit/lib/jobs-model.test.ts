/** What the job engine keeps and sends (lib/jobs/model.ts): results and batches compressed, the queue's messages. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeReferences, decodeResult, encodeReferences, encodeResult, parseMessage } from '../../../lib/jobs/model.js';

describe('a kept result', () => {
  it('round-trips compressed, and holds no more memory than its bytes (not zlib’s 16 KiB output chunk)', () => {
    const small = encodeResult({ entry: { index: 1, input: 'x'.repeat(2_000) }, record: { id: 'k', type: 'book' } });
    expect(decodeResult(small)).toEqual({ entry: { index: 1, input: 'x'.repeat(2_000) }, record: { id: 'k', type: 'book' } });
    expect(small.length).toBeLessThan(200);
    // Each has a buffer of its own size, small or large: a small one in Node's shared 8 KiB pool would keep
    // the whole slab alive while it is kept.
    expect(small.buffer.byteLength).toBe(small.length);
    const large = encodeResult({ entry: { input: randomBytes(6_000).toString('hex') } });
    expect(large.buffer.byteLength).toBe(large.length);
    const references = encodeReferences(['a', 'b']);
    expect(decodeReferences(references)).toEqual(['a', 'b']);
    expect(references.buffer.byteLength).toBe(references.length);
  });
});

describe('a queue message', () => {
  it('is read as one of the three kinds, anything else as none', () => {
    expect(parseMessage('{"type":"batch","job_id":"job_a","batch":3}')).toEqual({ type: 'batch', job_id: 'job_a', batch: 3 });
    expect(parseMessage('{"type":"finish-check","job_id":"job_a","batch":0}')).toMatchObject({ type: 'finish-check' });
    expect(parseMessage('{"type":"webhook","job_id":"job_a","try":2,"status":"done"}')).toMatchObject({ try: 2 });
    for (const body of [
      '',
      'not json',
      '{"type":"batch","job_id":"job_a","batch":"3"}',
      '{"type":"webhook","job_id":"job_a","try":1}',
      '{"type":"other","job_id":"x"}',
      '{"type":"batch","batch":1}',
    ]) {
      expect(parseMessage(body), body).toBeUndefined();
    }
  });
});
