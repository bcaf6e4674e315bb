/**
 * The MCP endpoint's protocol side: a stateless streamable-HTTP server answering plain JSON. Every HTTP
 * request gets a new server and transport (no session id, nothing kept between requests), so any
 * container can answer any request and there is no "server not initialized" behind a load balancer.
 * The caller is authenticated before this runs (functions/mcp.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { callRouteTool } from './call.js';
import { routeTools } from './tools.js';

export const SERVER_INFO = { name: 'search-citation-api', version: '0.1.0' } as const;

/** The protocol versions this server negotiates (the SDK's list): a client asking for another gets the latest. */
export const PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/**
 * An MCP request is a JSON-RPC message wrapping a tool's arguments, which the endpoint limits to 16 KiB;
 * 64 KiB leaves room for the wrapper and refuses anything an honest client would not send.
 */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

const INSTRUCTIONS =
  'Search the web (four engines), news, images, Google Trends and Google Scholar, and find papers with formatted citations. ' +
  'Most calls cost paid searches from a shared budget (each tool says how many); answers from the cache are free. ' +
  'Prefer web_search_alpha for general web questions, cite_search for papers and citations, and call usage to see the budget. ' +
  'A tool error says what to do; after BUDGET_EXHAUSTED do not retry before the time it gives.';

function toRequest(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  const body = event.body == null ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  const host = headers.get('host') ?? 'localhost';
  return new Request(`https://${host}${event.path}`, { method: event.httpMethod, headers, body });
}

async function toResult(response: Response): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, body: await response.text() };
}

/** Answers one MCP HTTP request (POST): initialize, ping, tools/list, tools/call and notifications. */
export async function handleMcpRequest(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  const tools = await routeTools();
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}; list the tools to see them`);
    return callRouteTool(tool, request.params.arguments ?? {}, event, context);
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
  });
  try {
    await server.connect(transport);
    return await toResult(await transport.handleRequest(toRequest(event)));
  } finally {
    await server.close();
  }
}
