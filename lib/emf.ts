/**
 * CloudWatch Embedded Metric Format (EMF) records: one JSON object per log line, from which CloudWatch Logs
 * extracts the metrics (AWS's specification: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html).
 * Written here rather than by Powertools Metrics, which wrote the same records but cost ~10 times as much
 * CPU per request (about 25 reads of `process.env` per request, for its invoke store; see the performance
 * guide): a record is one object and one JSON.stringify. The members come in the order Powertools wrote
 * them (`_aws`, metadata, dimension values, metric values), so a line still begins `{"_aws"`.
 */

/** The units this service writes (CloudWatch's own names). */
export type MetricUnit = 'Count' | 'Milliseconds';

export interface MetricValue {
  name: string;
  unit: MetricUnit;
  value: number;
}

export interface EmfRecord {
  namespace: string;
  /** The dimension sets the metrics are aggregated by: each a list of dimension names. */
  dimensionSets: readonly (readonly string[])[];
  /** The value of every dimension a set names. */
  dimensions: Readonly<Record<string, string>>;
  metrics: readonly MetricValue[];
  /** Members that are not metrics or dimensions (a request id), for finding the record in the logs. */
  metadata?: Readonly<Record<string, string>>;
  /** Epoch milliseconds the metrics are for; now when not given. */
  timestamp?: number;
}

/**
 * The record as one JSON line (no newline). Throws when a set names a dimension without a value, or when
 * a dimension, a metric or a metadata member share a name: CloudWatch would drop or misread the record.
 */
export function emfLine(record: EmfRecord): string {
  const out: Record<string, unknown> = {
    _aws: {
      Timestamp: record.timestamp ?? Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: record.namespace,
          Dimensions: record.dimensionSets,
          Metrics: record.metrics.map(({ name, unit }) => ({ Name: name, Unit: unit })),
        },
      ],
    },
  };
  const put = (name: string, value: unknown) => {
    if (name in out) throw new Error(`EMF record: "${name}" is used twice`);
    out[name] = value;
  };
  for (const [name, value] of Object.entries(record.metadata ?? {})) put(name, value);
  for (const [name, value] of Object.entries(record.dimensions)) put(name, value);
  for (const set of record.dimensionSets) {
    for (const name of set) {
      if (typeof record.dimensions[name] !== 'string') throw new Error(`EMF record: dimension "${name}" has no value`);
    }
  }
  for (const { name, value } of record.metrics) put(name, value);
  return JSON.stringify(out);
}
