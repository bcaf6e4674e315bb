/**
 * The MCP tool list is built ahead (`npm run mcp:tools` writes lib/mcp/tool-list.json) so that a container
 * answers tools/list without loading any endpoint: the file must be exactly what lib/mcp/tools.ts builds,
 * and the server must load an endpoint's module only when its tool is called.
 */
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { toolName } from '../../../lib/mcp/descriptions.js';
import { renderToolList, TOOL_LIST_FILE, toolDefinitions } from '../../../lib/mcp/tools.js';
import { ROUTES } from '../../../lib/routes.js';

describe('lib/mcp/tool-list.json', () => {
  it('is the list lib/mcp/tools.ts builds from the routes and their request schemas (run `npm run mcp:tools` after changing either)', async () => {
    const committed = readFileSync(TOOL_LIST_FILE, 'utf8');
    expect(committed, 'lib/mcp/tool-list.json is stale: run `npm run mcp:tools` and commit the result').toBe(
      renderToolList(await toolDefinitions()),
    );
  });

  it('holds one tool per route, in the routes table’s order', () => {
    const tools = JSON.parse(readFileSync(TOOL_LIST_FILE, 'utf8')) as { name: string }[];
    expect(tools.map((tool) => tool.name)).toEqual(ROUTES.map((route) => toolName(route.name)));
  });
});

/** The gateway event of one MCP message, as much of it as the server reads. */
function mcpEvent(message: unknown): APIGatewayProxyEvent {
  return {
    httpMethod: 'POST',
    path: '/mcp',
    resource: '/mcp',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: 'Bearer unit-test-client-key' },
    multiValueHeaders: {},
    body: JSON.stringify(message),
    isBase64Encoded: false,
    requestContext: { requestId: 'unit-mcp' },
  } as unknown as APIGatewayProxyEvent;
}

const context = { awsRequestId: 'unit-mcp', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

describe('the MCP server’s loading', () => {
  it('answers initialize and tools/list without loading any endpoint, and a call loads its own endpoint only', async () => {
    vi.resetModules();
    const loaded: string[] = [];
    for (const route of ROUTES) {
      vi.doMock(`../../../functions/${route.name}.ts`, async (importOriginal) => {
        loaded.push(route.name);
        return importOriginal();
      });
    }
    const { handleMcpRequest } = await import('../../../lib/mcp/server.js');
    const initialize = await handleMcpRequest(
      mcpEvent({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'unit', version: '1' } },
      }),
      context,
    );
    expect(initialize.statusCode).toBe(200);
    const list = await handleMcpRequest(mcpEvent({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }), context);
    const tools = (JSON.parse(list.body) as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.map((tool) => tool.name)).toEqual(ROUTES.map((route) => toolName(route.name)));
    expect(loaded).toEqual([]);

    // A free tool, answered in this process with no upstream: only its own endpoint is loaded.
    const call = await handleMcpRequest(
      mcpEvent({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'usage', arguments: {} } }),
      context,
    );
    expect(call.statusCode).toBe(200);
    expect(loaded).toEqual(['usage']);
  });
});
