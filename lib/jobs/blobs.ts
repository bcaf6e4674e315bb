/**
 * Where the job store puts what a DynamoDB item cannot hold (an item is at most 400 KB): a batch whose
 * references, or a result whose answer, is larger than BLOB_OVER_BYTES once compressed goes to one S3
 * object, and its item names the object. The objects expire with the job (the bucket's lifecycle rule,
 * infra/jobs.ts). The S3 client honours AWS_ENDPOINT_URL_S3, which the tests point at a fake on loopback.
 */
import type { S3Client } from '@aws-sdk/client-s3';

/** Bytes of one value above which it goes to S3: well below the item limit, with room for the item's other attributes. */
export const BLOB_OVER_BYTES = 300_000;

export interface BlobStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
}

type Sdk = typeof import('@aws-sdk/client-s3');

/** The S3 bucket as a blob store; the SDK is loaded on first use (the runtime's own copy where deployed). */
export function s3BlobStore(bucket: string): BlobStore {
  let sdk: Promise<{ client: S3Client; commands: Sdk }> | undefined;
  const s3 = () => {
    sdk ??= import('@aws-sdk/client-s3')
      .then((commands) => ({
        commands,
        // Path-style addresses, which S3 and any S3-protocol server take; checksums only where S3 requires
        // them, so the body goes as it is (no aws-chunked framing).
        client: new commands.S3Client({
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
      }))
      .catch((error: unknown) => {
        sdk = undefined;
        throw error;
      });
    return sdk;
  };
  return {
    async put(key, bytes) {
      const { client, commands } = await s3();
      await client.send(
        new commands.PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'application/gzip' }),
      );
    },
    async get(key) {
      const { client, commands } = await s3();
      const answer = await client.send(new commands.GetObjectCommand({ Bucket: bucket, Key: key }));
      const bytes = await answer.Body?.transformToByteArray();
      if (!bytes) throw new Error(`S3 object ${key} has no body`);
      return Buffer.from(bytes);
    },
  };
}
