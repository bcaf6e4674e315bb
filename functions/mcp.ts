/**
 * POST /mcp: every endpoint as an MCP tool (lib/mcp/). Refuses other methods (the streamable HTTP
 * transport lets a server without streams answer GET and DELETE with 405) and any caller without a valid
 * key before anything else, with the API's own envelopes; each tool call then runs the endpoint's handler,
 * loaded on the first call of its tool.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { config } from '../lib/config.js';
import { findClientKey } from '../lib/credentials/client-keys.js';
import { AppError, toAppError } from '../lib/errors.js';
import { errorResponse, header } from '../lib/http.js';
import { logger } from '../lib/logger.js';
import { handleMcpRequest } from '../lib/mcp/server.js';
import { bearerToken } from '../lib/middleware/auth.js';
import { VERSION_HEADERS } from '../lib/version.js';

// Nothing is loaded at cold start but the protocol: an endpoint's module is loaded when its tool is first
// called, and the tool list is built ahead (lib/mcp/tool-list.json), so `initialize`, `tools/list` and a
// first call do not pay for every endpoint.

/**
 * The 401's challenge (RFC 6750 §3): the key is wrong or missing. `invalid_token` and no
 * `resource_metadata`, so a client that can do OAuth says the key is wrong instead of starting a
 * discovery this API does not offer (it has no authorization server; its keys come from its operator).
 */
export const MCP_CHALLENGE =
  'Bearer error="invalid_token", error_description="Missing or invalid API key: send the header Authorization: Bearer <API key> with a key from this API\'s operator (no OAuth)"';

// Leave the function a moment after the deadline to answer, as every endpoint does.
const ANSWER_MARGIN_MS = 500;

/**
 * The JSON-RPC method and tool of a request, for the log line: names the service knows, never arguments.
 * A tool call also writes the endpoint's own line, with its upstream calls and cache hits.
 */
function rpcSummary(body: string | null): { rpcMethod?: string; tool?: string } {
  try {
    const message = JSON.parse(body ?? '') as { method?: unknown; params?: { name?: unknown } };
    const rpcMethod = typeof message.method === 'string' ? message.method.slice(0, 64) : undefined;
    const tool =
      rpcMethod === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name.slice(0, 64) : undefined;
    return { rpcMethod, tool };
  } catch {
    return {};
  }
}

export async function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  const startedAt = Date.now();
  const result = await answer(event, context);
  logger.info('request', {
    requestId: event.requestContext?.requestId || context.awsRequestId,
    path: '/mcp',
    status: result.statusCode,
    ...(result.statusCode === 200 ? rpcSummary(event.body) : {}),
    latencyMs: Date.now() - startedAt,
  });
  return result;
}

async function answer(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  const requestId = event.requestContext?.requestId || context.awsRequestId;
  const stamp = { 'X-Request-Id': requestId, ...VERSION_HEADERS };
  try {
    if (event.httpMethod !== 'POST') {
      return errorResponse(
        new AppError('METHOD_NOT_ALLOWED', {
          details: `${event.httpMethod} is not allowed here; this MCP server is stateless and answers POST only`,
          headers: { Allow: 'POST' },
        }),
        stamp,
      );
    }
    const remaining = context.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
    const deadline = Date.now() + Math.min(config.REQUEST_DEADLINE_MS, remaining - ANSWER_MARGIN_MS);
    const token = bearerToken(header(event, 'authorization'));
    const client = token === undefined ? undefined : await findClientKey(token, deadline);
    if (client === undefined) {
      return errorResponse(
        new AppError('UNAUTHORIZED', {
          details: 'Send the header "Authorization: Bearer <API key>" with a valid key',
          headers: { 'WWW-Authenticate': MCP_CHALLENGE },
        }),
        stamp,
      );
    }
    const result = await handleMcpRequest(event, context);
    return { ...result, headers: { ...result.headers, ...stamp } };
  } catch (error) {
    const appError = toAppError(error, requestId);
    if (appError.code === 'INTERNAL_ERROR') logger.error('MCP request failed', { requestId, error: error as Error });
    return errorResponse(appError, stamp);
  }
}
