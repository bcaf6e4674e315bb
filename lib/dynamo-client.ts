/**
 * A DynamoDB client for one table's use, made once per container on its first call: the SDK is imported
 * then (the Lambda runtime's own copy where deployed; a run without a table never loads it), with one
 * attempt per call (its caller decides what a retry is) and a time of its own. A failed load is tried
 * again by the next call.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export type DynamoSdk = typeof import('@aws-sdk/client-dynamodb');

export function lazyDynamoClient(timeoutMs: number): () => Promise<{ client: DynamoDBClient; commands: DynamoSdk }> {
  let sdk: Promise<{ client: DynamoDBClient; commands: DynamoSdk }> | undefined;
  return () => {
    sdk ??= import('@aws-sdk/client-dynamodb')
      .then((commands) => ({
        commands,
        client: new commands.DynamoDBClient({
          maxAttempts: 1,
          requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
        }),
      }))
      .catch((error: unknown) => {
        sdk = undefined;
        throw error;
      });
    return sdk;
  };
}

/**
 * Whether a call failed because its connection closed before any answer: mostly a kept-alive connection the
 * table closed just as the call was written on it, which a new connection mends. The SDK names it
 * TimeoutError and keeps Node's code.
 */
export function connectionDropped(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
