import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type * as z from 'zod/mini';
import { AppError } from '../errors.js';
import type { ApiContext } from '../request-state.js';

/**
 * One readable line naming every offending field: "num: must be an integer from 1 to 100; foo: unknown field".
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const byField = new Map<string, string[]>();
  const add = (field: string, message: string) => {
    const messages = byField.get(field) ?? [];
    if (!messages.includes(message)) messages.push(message);
    byField.set(field, messages);
  };
  for (const issue of issues) {
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(prefix ? `${prefix}.${key}` : key, 'unknown field');
    } else if (issue.path.length === 0 && issue.code === 'invalid_type') {
      add('body', 'must be a JSON object');
    } else {
      add(prefix || 'body', issue.message);
    }
  }
  return [...byField].map(([field, messages]) => `${field}: ${messages.join(', ')}`).join('; ');
}

/** Validates the parsed body against the endpoint's schema; the handler sees only the parsed output. */
export function validate(schema: z.ZodMiniType): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext> {
  return {
    before: ({ context }) => {
      const result = schema.safeParse(context.api.body);
      if (!result.success) {
        throw new AppError('INVALID_REQUEST', { details: formatIssues(result.error.issues) });
      }
      context.api.body = result.data;
    },
  };
}
