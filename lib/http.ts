import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { fail } from './envelope.js';
import type { AppError } from './errors.js';
import { VERSION_HEADERS } from './version.js';

// Every response is JSON, never cached by a shared cache, never sniffed into something else, and says
// which version of the API answered.
const BASE_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  ...VERSION_HEADERS,
} as const;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** The envelope of a failure, with the status and headers its code calls for. */
export function errorResponse(error: AppError, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return jsonResponse(error.status, fail(error), { ...error.headers, ...headers });
}

/** A request header by name, whatever its case; REST proxy events may carry it in either map. */
export function header(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  for (const [key, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === wanted && values?.length) return values.join(', ');
  }
  return undefined;
}
