/**
 * No runtime warning in the tests' output. On Node 20 the AWS SDK warns, once per process, that its
 * releases from January 2027 need Node 22; vitest.config.ts sets the SDK's documented switch
 * (AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED, aws/aws-sdk-js-v3#7983) for the tests. Each file runs
 * in a fresh process, so this one sees the first client creation of its process, where the warning would be.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';

describe('the AWS SDK clients', () => {
  it('are made without a process warning, whatever the Node version', async () => {
    const warnings: string[] = [];
    const listener = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', listener);
    try {
      new DynamoDBClient({ region: 'us-east-1' });
      new SecretsManagerClient({ region: 'us-east-1' });
      // process.emitWarning reports on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    expect(warnings).toEqual([]);
  });
});
