/**
 * One tool call is one API request: the MCP request's own gateway event, re-aimed at the route's path with
 * the arguments as its JSON body and the caller's Authorization header, given to the route's Lambda
 * handler in this process. Keys, validation, caches, the spend budget, deadlines, logs and metrics are
 * therefore the API's own; the envelope that comes back becomes the tool result.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { FailureEnvelope, SuccessEnvelope } from '../envelope.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { renderError, renderSuccess } from './render.js';
import type { RouteTool } from './route-handler.js';

/** The event API Gateway would have sent had the caller POSTed `args` to the route itself. */
export function routeEvent(mcpEvent: APIGatewayProxyEvent, path: string, args: unknown): APIGatewayProxyEvent {
  // Only the headers an endpoint reads: the key, and the body's type. The MCP request's Accept and
  // protocol headers are no business of the endpoint's.
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  for (const [name, value] of Object.entries(mcpEvent.headers ?? {})) {
    const lower = name.toLowerCase();
    if (value !== undefined && (lower === 'authorization' || lower === 'user-agent')) headers[name] = value;
  }
  const multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
  return {
    ...mcpEvent,
    resource: path,
    path,
    httpMethod: 'POST',
    headers,
    multiValueHeaders,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    body: JSON.stringify(args ?? {}),
    isBase64Encoded: false,
    requestContext: { ...mcpEvent.requestContext, resourcePath: path, httpMethod: 'POST' },
  };
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return String(value);
  return undefined;
}

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_CODES;

/** Runs the route's handler and turns its envelope into a tool result. */
export async function callRouteTool(
  tool: RouteTool,
  args: unknown,
  mcpEvent: APIGatewayProxyEvent,
  context: Context,
): Promise<CallToolResult> {
  // A copy: the middleware keeps the request's state on the context, and calls must not share it.
  const result = await tool.handler(routeEvent(mcpEvent, tool.route.path, args), { ...context });
  const envelope = JSON.parse(result.body) as SuccessEnvelope<Record<string, unknown>> | FailureEnvelope;
  if (envelope.success) {
    return {
      content: [{ type: 'text', text: renderSuccess(envelope.message, envelope.data, tool.route.name) }],
      structuredContent: envelope.data,
    };
  }
  const code: ErrorCode = isErrorCode(envelope.error?.code) ? envelope.error.code : 'INTERNAL_ERROR';
  const retryAfterText = headerValue(result.headers, 'retry-after');
  const retryAfter = retryAfterText !== undefined && /^\d+$/.test(retryAfterText) ? Number(retryAfterText) : undefined;
  const requestId = headerValue(result.headers, 'x-request-id');
  const text = renderError(code, envelope.message, envelope.error?.details ?? '', retryAfter, tool.route.name);
  return {
    isError: true,
    content: [{ type: 'text', text: requestId ? `${text}\nRequest id: ${requestId}` : text }],
    // The same facts for clients that branch on them: MCP has no error fields of its own for tool results.
    _meta: { code, status: result.statusCode, ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }) },
  };
}
