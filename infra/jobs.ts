/**
 * Jobs on AWS's own engines (docs/decisions.md §27): an SQS queue of a job's batches, its dead-letter
 * queue (a batch that failed JOBS_MAX_RECEIVES tries) with an alarm on its depth, the worker Lambda fed by
 * an event source mapping (partial batch failures reported, its concurrency sized to the sources' pace),
 * the jobs' DynamoDB table (TTL) and the S3 bucket for values too large for an item (expired by a
 * lifecycle rule). The table, the bucket and the queues are kept when the stack is deleted or a change
 * would replace them: they hold the only copy of clients' work, so no deploy can lose a job.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { publishedInFlight, publishedPace } from '../lib/citations/sources/published-pace.js';
import { workerConcurrency } from '../lib/jobs/sizing.js';
import { JOB_TABLE_KEYS } from '../lib/jobs/store-dynamo.js';
import { RECORD_SOURCES, type Route } from '../lib/routes.js';
import { ApiFunction, type ApiFunctionProps } from './api-function.js';

/** The worker as the constructs name it: no route of the table (no client calls it). */
export const JOBS_WORKER_ROUTE: Route = {
  path: '/jobs-worker',
  name: 'jobs-worker',
  summary: "Works on jobs' batches from the SQS queue",
  tag: 'Jobs',
  // Crossref and DataCite, at the deployment's pace (lib/pace/): a job's lookups take their turns with
  // every endpoint's.
  needs: { paidCalls: false, upstreamKey: false, budget: 'none', sharedCache: false, paces: RECORD_SOURCES },
};

/** The worker's description: what the template's readers (and the least-privilege test) know it by. */
export const JOBS_WORKER_DESCRIPTION = "Works on jobs' batches from SQS (functions/jobs-worker.ts)";

/**
 * The worker's time for one invocation. A batch of 20 references at Crossref's public pace takes a few
 * seconds when the worker has the pace to itself; the rest is room for a slow source within one try.
 */
export const JOBS_WORKER_TIMEOUT_SECONDS = 90;
/** Receives of a batch before the dead-letter queue (maxReceiveCount), as the code's JOBS_MAX_RECEIVES default. */
export const JOBS_MAX_RECEIVES = 5;
/** Messages per invocation (the event source mapping's BatchSize): two batches of 20 references. */
export const JOBS_MESSAGES_PER_INVOCATION = 2;
/** Lookups a worker has in flight at once (CROSSREF_CONCURRENCY's default in lib/config.ts). */
export const WORKER_LOOKUPS_IN_FLIGHT = 3;
/**
 * What each job route's function reserves of the account's concurrency when the functions reserve some
 * (`reservedConcurrency`), at most: a submission, a status, a page of results or a cancel is a few table
 * reads or writes (tens of milliseconds), so 5 at once answer about a hundred calls a second, and the
 * stack's sum stays within its share (infra/concurrency.ts, docs/decisions.md §27).
 */
export const JOB_ROUTE_RESERVED_CONCURRENCY = 5;

/** A job route's reservation for the stack's `reservedConcurrency` (unset: none). */
export function jobRouteReservation(reservedConcurrency: number | undefined): number | undefined {
  return reservedConcurrency === undefined ? undefined : Math.min(reservedConcurrency, JOB_ROUTE_RESERVED_CONCURRENCY);
}

/** Messages in the dead-letter queue at which its alarm fires: one batch that no try could finish. */
export const DEAD_LETTER_ALARM_DEPTH = 1;

export interface JobsProps {
  /** The props every endpoint's function gets, less its route. */
  functionProps: Omit<ApiFunctionProps, 'route'>;
  ttlDays: number;
  /** CROSSREF_MAILTO: Crossref's polite pool, twice the public pace, so twice the workers. */
  crossrefMailto?: string;
  /** Reserved concurrency of the functions (unset: the account's pool): the worker reserves its maximum. */
  reservedConcurrency?: number;
}

export class Jobs extends Construct {
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  readonly queue: sqs.Queue;
  readonly deadLetters: sqs.Queue;
  readonly worker: ApiFunction;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  /** Workers at once: the event source mapping's maximum concurrency. */
  readonly workers: number;
  /** The resources as the job routes' functions are given them (ApiFunctionProps.jobs). */
  readonly resources: NonNullable<ApiFunctionProps['jobs']>;

  constructor(scope: Construct, id: string, props: JobsProps) {
    super(scope, id);
    const kept = RemovalPolicy.RETAIN;
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: JOB_TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: JOB_TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // Jobs end by themselves: DynamoDB deletes every item of a job after its days, at no charge.
      timeToLiveAttribute: JOB_TABLE_KEYS.timeToLive,
      removalPolicy: kept,
    });
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // A day more than the table keeps a job: an object outlives every item that names it.
      lifecycleRules: [{ expiration: Duration.days(props.ttlDays + 1) }],
      removalPolicy: kept,
    });
    this.deadLetters = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's longest: an operator has two weeks to look and redrive.
      retentionPeriod: Duration.days(14),
      removalPolicy: kept,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for a Lambda event source: six times the function's timeout.
      visibilityTimeout: Duration.seconds(JOBS_WORKER_TIMEOUT_SECONDS * 6),
      retentionPeriod: Duration.days(Math.min(14, props.ttlDays)),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: JOBS_MAX_RECEIVES },
      removalPolicy: kept,
    });

    const hasContact = Boolean(props.crossrefMailto);
    this.workers = workerConcurrency(
      publishedPace('crossref', hasContact),
      WORKER_LOOKUPS_IN_FLIGHT,
      publishedInFlight('crossref', hasContact),
    );
    this.resources = { table: this.table, bucket: this.bucket, queue: this.queue, ttlDays: props.ttlDays };
    this.worker = new ApiFunction(this, 'Worker', {
      ...props.functionProps,
      route: JOBS_WORKER_ROUTE,
      description: JOBS_WORKER_DESCRIPTION,
      jobs: this.resources,
      jobUses: ['work'],
      readsClientKeys: false,
      timeout: Duration.seconds(JOBS_WORKER_TIMEOUT_SECONDS),
      reservedConcurrency: props.reservedConcurrency === undefined ? undefined : this.workers,
      environment: {
        JOBS_MAX_RECEIVES: String(JOBS_MAX_RECEIVES),
        JOBS_WORKER_TIMEOUT_SECONDS: String(JOBS_WORKER_TIMEOUT_SECONDS),
        JOBS_MESSAGES_PER_INVOCATION: String(JOBS_MESSAGES_PER_INVOCATION),
      },
    });
    this.worker.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: JOBS_MESSAGES_PER_INVOCATION,
        reportBatchItemFailures: true,
        maxConcurrency: this.workers,
      }),
    );

    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DeadLetterDepth', {
      alarmDescription:
        "A job's batch failed every try and is in the dead-letter queue: the job names its references failed. " +
        "Read the worker's log for why, then redrive the queue (its answers replace the failures) or purge it.",
      metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: DEAD_LETTER_ALARM_DEPTH,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    this.acknowledgeFindings();
  }

  /** The dead-letter alarm notifies the stack's alarm topic, going in and out (it is made after the functions). */
  notify(topic: sns.ITopic): void {
    this.deadLetterAlarm.addAlarmAction(new actions.SnsAction(topic));
    this.deadLetterAlarm.addOkAction(new actions.SnsAction(topic));
  }

  private acknowledgeFindings(): void {
    Validations.of(this.table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'A job lives 7 days (jobsTtlDays) and is made again by submitting its list again; the table is kept when the ' +
        'stack is deleted or replaced, so no deploy loses one. Point-in-time recovery would bill for restoring what expires anyway.',
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        "It holds only the parts of jobs' items too large for DynamoDB, written and read by the job functions' roles alone, " +
        'each object expired with its job; an access log bucket would cost more than the objects. CloudTrail data events ' +
        'can record its reads where a team needs them.',
    });
  }
}
