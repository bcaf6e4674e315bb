/**
 * The MCP endpoint's protocol side: a stateless streamable-HTTP server answering plain JSON, one JSON-RPC
 * message per HTTP request. Nothing is kept between requests (no session id), so any container can answer
 * any request and there is no "server not initialized" behind a load balancer. Speaks the 2025 revisions
 * (`initialize` first) and the stateless 2026-07-28 one (`server/discover`, a version on every request,
 * `Mcp-Method`/`Mcp-Name` headers) side by side. The caller is authenticated before this runs
 * (functions/mcp.ts).
 *
 * Written here rather than with the SDK's server: a stateless JSON server is a few methods, and the SDK's
 * (with the classic zod schemas of every protocol type) took longer to load than a whole endpoint's cold
 * start, while it accepted batches, answered bad params -32603 with a validator dump and knew no 2026-07-28.
 * The SDK's client is what the tests connect with.
 */
import type { CallToolResult, InitializeResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { LARGEST_BODY_BYTES, ROUTES } from '../routes.js';
import { API_VERSION } from '../version.js';
import { callRouteTool } from './call.js';
import { SERVER_INSTRUCTIONS, toolName } from './descriptions.js';
import { classify, isObject, META, MODERN_PROTOCOL_VERSION, MODERN_VERSIONS, RPC_ERRORS } from './modern.js';
import { type RouteTool, routeHandler } from './route-handler.js';
// Built ahead by `npm run mcp:tools` from the routes table and the request schemas (tools.ts; a test holds
// the file to what tools.ts builds), and compiled into the function by esbuild: listing the tools loads no
// endpoint's module.
import TOOL_LIST from './tool-list.json' with { type: 'json' };

/** Who answers: the API's name and version (package.json's, as every answer's `X-Api-Version`). */
export const SERVER_INFO = { name: 'search-citation-api', version: API_VERSION } as const;

/** The latest 2025 revision: what `initialize` answers a client asking for a version it does not know. */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';

/** The protocol versions `initialize` negotiates (the SDK's SUPPORTED_PROTOCOL_VERSIONS; a test holds them equal). */
export const PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

/**
 * The stateless revision: no `initialize`; each request carries its version in `params._meta` (the
 * per-request envelope, with the client's capabilities) and repeats it in the `MCP-Protocol-Version`
 * header, and the `Mcp-Method` and `Mcp-Name` headers repeat the body's method and tool for
 * intermediaries. Served here exactly as the reference SDK (`@modelcontextprotocol/server` 2.x) reads it:
 * the body decides the era, and the headers must agree with it (modern.ts).
 */
export { MODERN_PROTOCOL_VERSION };

/**
 * What `server/discover` lists: the stateless revisions only, as the reference SDK answers; a 2025 client
 * negotiates one of PROTOCOL_VERSIONS through `initialize` instead.
 */
export const DISCOVER_VERSIONS: readonly string[] = MODERN_VERSIONS;

export { RPC_ERRORS };

/**
 * How long a client may keep the tool list and the discovery answer (2026-07-28's `ttlMs`): they change
 * only when a new version is deployed. `private`: the answer is behind the caller's key, so no shared
 * cache between clients should hold it.
 */
export const LIST_CACHE = { ttlMs: 3_600_000, cacheScope: 'private' } as const;

/**
 * An MCP request is a JSON-RPC message wrapping a tool's arguments, which the endpoint limits as its route
 * does (16 KiB, a reference list's 256 KiB: lib/routes.ts); 48 KiB more than the largest leaves room for
 * the wrapper and refuses anything an honest client would not send. The route's own limit still holds
 * for its arguments.
 */
export const MAX_MCP_BODY_BYTES = LARGEST_BODY_BYTES + 48 * 1024;

const CAPABILITIES = { tools: { listChanged: false } };

const JSON_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

type JsonRpcId = string | number | null;

function rpcError(status: number, id: JsonRpcId, code: number, message: string, data?: unknown): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }),
  };
}

function rpcResult(id: JsonRpcId, result: Record<string, unknown>): APIGatewayProxyResult {
  return { statusCode: 200, headers: { ...JSON_HEADERS }, body: JSON.stringify({ jsonrpc: '2.0', id, result }) };
}

function headerOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value !== undefined) return value;
  }
  return undefined;
}

function bodyText(event: APIGatewayProxyEvent): string {
  if (event.body == null) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

type ParamCheck = (params: Record<string, unknown>) => string[];

const stringField = (params: Record<string, unknown>, field: string, optional = false): string[] =>
  (optional && params[field] === undefined) || typeof params[field] === 'string' ? [] : [`params.${field}: expected a string`];
const objectField = (params: Record<string, unknown>, field: string, optional = false): string[] =>
  (optional && params[field] === undefined) || isObject(params[field]) ? [] : [`params.${field}: expected an object`];

/** What each method this server answers needs in its params (the protocol's schema, as far as it is used). */
const PARAM_CHECKS: Record<string, ParamCheck> = {
  initialize: (params) => {
    const problems = [...stringField(params, 'protocolVersion'), ...objectField(params, 'capabilities')];
    const info = params.clientInfo;
    if (!isObject(info)) problems.push('params.clientInfo: expected an object');
    else {
      if (typeof info.name !== 'string') problems.push('params.clientInfo.name: expected a string');
      if (typeof info.version !== 'string') problems.push('params.clientInfo.version: expected a string');
    }
    return problems;
  },
  'tools/list': (params) => stringField(params, 'cursor', true),
  'tools/call': (params) => [...stringField(params, 'name'), ...objectField(params, 'arguments', true)],
};

/** The first few problems as `field: problem`. */
function paramProblems(method: string, params: Record<string, unknown>): string | undefined {
  const problems = PARAM_CHECKS[method]?.(params) ?? [];
  if (params._meta !== undefined && !isObject(params._meta)) problems.unshift('params._meta: expected an object');
  return problems.length ? `Invalid params for ${method}: ${problems.slice(0, 3).join('; ')}` : undefined;
}

/** The message's id if it is a valid one, for error replies; null otherwise, as JSON-RPC says. */
const idOf = (message: Record<string, unknown>): JsonRpcId =>
  typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;

type Preflight =
  | { reply: APIGatewayProxyResult }
  | { id: JsonRpcId; method: string; params: Record<string, unknown>; modern: boolean };

/**
 * What the SDK's transport accepts too loosely, refused here before any tool runs: a batch (one HTTP
 * request must be one message, so that the gateway's flood guard and WAF count every call), a message
 * that is not JSON-RPC 2.0 (-32600), params that fail the method's schema (-32602 naming the field), and
 * a 2026-07-28 request whose envelope or headers the reference SDK would refuse (modern.ts).
 * Notifications and responses are accepted (202).
 */
function preflight(event: APIGatewayProxyEvent): Preflight {
  const contentType = headerOf(event, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    return {
      reply: rpcError(415, null, RPC_ERRORS.SERVER_ERROR, 'Unsupported Media Type: Content-Type must be application/json'),
    };
  }
  const accept = headerOf(event, 'accept');
  if (accept !== undefined && !/application\/json|application\/\*|\*\/\*/i.test(accept)) {
    return { reply: rpcError(406, null, RPC_ERRORS.SERVER_ERROR, 'Not Acceptable: the client must accept application/json') };
  }
  const text = bodyText(event);
  if (Buffer.byteLength(text) > MAX_MCP_BODY_BYTES) {
    return { reply: rpcError(413, null, RPC_ERRORS.INVALID_REQUEST, `The message must be at most ${MAX_MCP_BODY_BYTES} bytes`) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { reply: rpcError(400, null, RPC_ERRORS.PARSE_ERROR, 'Parse error: the body is not valid JSON') };
  }
  if (Array.isArray(parsed)) {
    return {
      reply: rpcError(
        400,
        null,
        RPC_ERRORS.INVALID_REQUEST,
        'Invalid Request: batches are not accepted; send one JSON-RPC message per HTTP request',
      ),
    };
  }
  if (!isObject(parsed)) {
    return { reply: rpcError(400, null, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: the body must be one JSON-RPC object') };
  }
  const message = parsed;
  const id = idOf(message);
  if (message.jsonrpc !== '2.0') {
    return { reply: rpcError(400, id, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"') };
  }
  const hasId = 'id' in message;
  if (hasId && (id === null || (typeof message.id === 'number' && !Number.isInteger(message.id)))) {
    return { reply: rpcError(400, null, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: id must be a string or an integer') };
  }
  const isResponse = !('method' in message) && hasId && ('result' in message || 'error' in message);
  if (!isResponse && (typeof message.method !== 'string' || message.method === '')) {
    return { reply: rpcError(400, id, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: method must be a non-empty string') };
  }
  if ('params' in message && message.params !== undefined && !isObject(message.params)) {
    return { reply: rpcError(400, id, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request: params must be an object') };
  }
  // A response to a request this server never sends: nothing to answer.
  if (isResponse) return { reply: { statusCode: 202, headers: { ...JSON_HEADERS }, body: '' } };
  const method = message.method as string;
  const params = isObject(message.params) ? message.params : {};

  const era = classify(
    { method, params, isRequest: hasId },
    {
      protocolVersion: headerOf(event, 'mcp-protocol-version'),
      method: headerOf(event, 'mcp-method'),
      name: headerOf(event, 'mcp-name'),
    },
    PROTOCOL_VERSIONS,
  );
  if (era.kind === 'refuse') return { reply: rpcError(era.status, hasId ? id : null, era.code, era.message, era.data) };
  // A notification: nothing to answer.
  if (!hasId) return { reply: { statusCode: 202, headers: { ...JSON_HEADERS }, body: '' } };
  const problems = paramProblems(method, params);
  if (problems) return { reply: rpcError(200, id, RPC_ERRORS.INVALID_PARAMS, problems) };
  return { id, method, params, modern: era.kind === 'modern' };
}

// Tools by name, each loaded on its first call from its own route's module only: a container that is
// asked for one tool never loads the other endpoints' handlers.
const ROUTE_BY_TOOL = new Map(ROUTES.map((route) => [toolName(route.name), route]));
const oneTool = new Map<string, Promise<RouteTool>>();

async function toolNamed(name: string): Promise<RouteTool | undefined> {
  const route = ROUTE_BY_TOOL.get(name);
  if (!route) return undefined;
  let tool = oneTool.get(name);
  if (!tool) {
    tool = routeHandler(route).then((handler) => ({ route, handler }));
    tool.catch(() => oneTool.delete(name));
    oneTool.set(name, tool);
  }
  return tool;
}

/** The tools as tools/list answers them. */
const TOOLS = TOOL_LIST as unknown as Tool[];

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

async function answer(
  method: string,
  params: Record<string, unknown>,
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<Record<string, unknown>> {
  switch (method) {
    case 'initialize': {
      const asked = params.protocolVersion as string;
      const result: InitializeResult = {
        protocolVersion: PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION,
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: SERVER_INSTRUCTIONS,
      };
      return result;
    }
    case 'server/discover':
      return { supportedVersions: DISCOVER_VERSIONS, capabilities: CAPABILITIES, instructions: SERVER_INSTRUCTIONS };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: TOOLS };
    case 'tools/call': {
      const name = params.name as string;
      const tool = await toolNamed(name);
      if (!tool) throw new RpcError(RPC_ERRORS.INVALID_PARAMS, `Unknown tool: ${name.slice(0, 64)}; list the tools to see them`);
      const result: CallToolResult = await callRouteTool(tool, params.arguments ?? {}, event, context);
      return result;
    }
    default:
      throw new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 64)}`);
  }
}

/**
 * Answers one MCP HTTP request (POST): initialize, ping, tools/list, tools/call, server/discover and
 * notifications. Loads a tool's endpoint only when it is called; the list is built ahead (tool-list.json).
 */
export async function handleMcpRequest(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  const checked = preflight(event);
  if ('reply' in checked) return checked.reply;
  const { id, method, params, modern } = checked;
  // The 2026-07-28 revision has neither `initialize` nor `ping`; a method it does not have is refused as
  // the reference SDK refuses it, with HTTP 404.
  if (modern && !MODERN_METHODS.has(method))
    return rpcError(404, id, RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 64)}`);
  try {
    const result = await answer(method, params, event, context);
    return rpcResult(id, modern ? modernResult(method, result) : result);
  } catch (error) {
    if (error instanceof RpcError) return rpcError(200, id, error.code, error.message);
    throw error;
  }
}

/** The methods this server answers in the 2026-07-28 revision. */
const MODERN_METHODS = new Set(['server/discover', 'tools/list', 'tools/call']);

/** The methods whose 2026-07-28 results a client may cache, and so carry `ttlMs` and `cacheScope`. */
const CACHEABLE_METHODS = new Set(['tools/list', 'server/discover']);

/**
 * A result as the 2026-07-28 revision requires it: `resultType` (always `complete` here), the cache fields
 * where the method's result is cacheable, and the server's identity in `_meta`, as the reference SDK
 * stamps every result.
 */
function modernResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const meta = isObject(result._meta) ? result._meta : {};
  return {
    resultType: 'complete',
    ...result,
    ...(CACHEABLE_METHODS.has(method) ? LIST_CACHE : {}),
    _meta: { ...meta, [META.serverInfo]: SERVER_INFO },
  };
}
