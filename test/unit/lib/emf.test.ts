import { describe, expect, it } from 'vitest';
import { emfLine } from '../../../lib/emf.js';

const record = {
  namespace: 'SearchCitationApi',
  dimensionSets: [['service', 'client'], ['service']],
  dimensions: { service: 'search-citation-api', client: 'acme' },
  metrics: [
    { name: 'Requests', unit: 'Count', value: 1 },
    { name: 'Latency', unit: 'Milliseconds', value: 12 },
  ],
  metadata: { requestId: 'req-1' },
  timestamp: 1_700_000_000_000,
} as const;

describe('emfLine', () => {
  it('writes the EMF document: _aws first (log filters and the tests find records by it), then metadata, dimensions and values', () => {
    expect(emfLine(record)).toBe(
      JSON.stringify({
        _aws: {
          Timestamp: 1_700_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: 'SearchCitationApi',
              Dimensions: [['service', 'client'], ['service']],
              Metrics: [
                { Name: 'Requests', Unit: 'Count' },
                { Name: 'Latency', Unit: 'Milliseconds' },
              ],
            },
          ],
        },
        requestId: 'req-1',
        service: 'search-citation-api',
        client: 'acme',
        Requests: 1,
        Latency: 12,
      }),
    );
  });

  it('stamps the time of writing when no timestamp is given', () => {
    const before = Date.now();
    const { _aws } = JSON.parse(emfLine({ ...record, timestamp: undefined })) as { _aws: { Timestamp: number } };
    expect(_aws.Timestamp).toBeGreaterThanOrEqual(before);
    expect(_aws.Timestamp).toBeLessThanOrEqual(Date.now());
  });

  it('refuses a dimension set naming a dimension without a value, which CloudWatch would drop', () => {
    expect(() => emfLine({ ...record, dimensions: { service: 'search-citation-api' } })).toThrow(
      /dimension "client" has no value/,
    );
  });

  it('refuses two members of one name, which CloudWatch would misread', () => {
    expect(() => emfLine({ ...record, metadata: { Requests: 'x' } })).toThrow(/"Requests" is used twice/);
    expect(() => emfLine({ ...record, metrics: [...record.metrics, { name: 'client', unit: 'Count', value: 1 }] })).toThrow(
      /"client" is used twice/,
    );
  });
});
