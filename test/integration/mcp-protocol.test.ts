/**
 * POST /mcp at the JSON-RPC level, raw over HTTP against the local server: one message per request
 * (batches refused before anything runs), JSON-RPC's own error codes, the 2026-07-28 revision beside the
 * 2025 ones (server/discover, the Mcp-Method and Mcp-Name headers checked against the body, stateless
 * calls with no initialize), and a 401 that sends no OAuth-capable client into discovery.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  DISCOVER_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION as OUR_LATEST,
  PROTOCOL_VERSIONS,
  RPC_ERRORS,
  SERVER_INFO,
} from '../../lib/mcp/server.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const harness = useService();

const BASE_HEADERS = {
  Accept: 'application/json, text/event-stream',
  'Content-Type': 'application/json',
  Authorization: `Bearer ${TEST_CLIENT_KEY}`,
};

interface RpcReply {
  jsonrpc?: string;
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; reply: RpcReply }> {
  const response = await fetch(`${harness.service.url}/mcp`, {
    method: 'POST',
    headers: { ...BASE_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, reply: (text ? JSON.parse(text) : {}) as RpcReply };
}

const call = (id: number, q = 'coffee') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'web_search_alpha', arguments: { q, no_cache: true } },
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('MCP protocol', () => {
  it('negotiates the 2025 versions the SDK knows through initialize, and discovers only 2026-07-28', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(OUR_LATEST).toBe(LATEST_PROTOCOL_VERSION);
    // As the reference SDK answers server/discover: the stateless revisions only.
    expect(DISCOVER_VERSIONS).toEqual([MODERN_PROTOCOL_VERSION]);
  });

  it('refuses a batch with -32600 before anything runs: no paid call', async () => {
    const { status, reply } = await post([call(1), call(2, 'tea'), call(3, 'milk')]);
    expect(status).toBe(400);
    expect(reply.error?.code).toBe(RPC_ERRORS.INVALID_REQUEST);
    expect(reply.error?.message).toMatch(/batch/i);
    expect(reply.id).toBeNull();
    // A batch of one is a batch too.
    expect((await post([call(4)])).reply.error?.code).toBe(-32600);
    expect(harness.upstream.calls()).toBe(0);
    // The same call alone is answered, and is a paid call.
    const single = await post(call(5));
    expect(single.status).toBe(200);
    expect(single.reply.result?.isError).toBeFalsy();
    expect(harness.upstream.calls()).toBe(1);
  });

  it('answers bad params with -32602 naming the field, with no validator dump', async () => {
    const badName = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 42, arguments: {} } });
    expect(badName.status).toBe(200);
    expect(badName.reply.id).toBe(7);
    expect(badName.reply.error?.code).toBe(RPC_ERRORS.INVALID_PARAMS);
    expect(badName.reply.error?.message).toMatch(/params\.name: expected a string/);
    expect(badName.reply.error?.message).not.toMatch(/[[{]|"code"|invalid_type/);
    const badArguments = await post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'usage', arguments: 'x' } });
    expect(badArguments.reply.error?.code).toBe(-32602);
    expect(badArguments.reply.error?.message).toMatch(/params\.arguments: expected/);
    const badInitialize = await post({ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
    expect(badInitialize.reply.error?.code).toBe(-32602);
    expect(badInitialize.reply.error?.message).toMatch(/params\.(capabilities|clientInfo)/);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('answers a message that is not JSON-RPC 2.0 with -32600, and only unparseable JSON with -32700', async () => {
    for (const message of [
      { id: 1, method: 'tools/list' },
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [1] },
      'null',
      '"tools/list"',
    ]) {
      const { status, reply } = await post(message);
      expect(status, JSON.stringify(message)).toBe(400);
      expect(reply.error?.code, JSON.stringify(message)).toBe(RPC_ERRORS.INVALID_REQUEST);
    }
    for (const text of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'not json']) {
      const { status, reply } = await post(text);
      expect(status, text).toBe(400);
      expect(reply.error?.code, text).toBe(RPC_ERRORS.PARSE_ERROR);
    }
  });

  it('answers server/discover with its version, capabilities and identity (2026-07-28), with no initialize', async () => {
    const { status, reply } = await post(
      { jsonrpc: '2.0', id: 'discover-1', method: 'server/discover', params: { _meta: MODERN_META } },
      { 'MCP-Protocol-Version': MODERN_PROTOCOL_VERSION, 'Mcp-Method': 'server/discover' },
    );
    expect(status).toBe(200);
    expect(reply.id).toBe('discover-1');
    expect(reply.result).toMatchObject({
      resultType: 'complete',
      capabilities: { tools: {} },
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    });
    expect(reply.result?.supportedVersions).toEqual(['2026-07-28']);
    // As a 2025 client probing first would send it: no version header, no _meta.
    const probe = await post({ jsonrpc: '2.0', id: 2, method: 'server/discover' });
    expect(probe.status).toBe(200);
    expect(probe.reply.result?.supportedVersions).toContain(MODERN_PROTOCOL_VERSION);
  });

  it('serves 2026-07-28 requests statelessly: tools/list and tools/call with no initialize, headers matching', async () => {
    const headers = { 'MCP-Protocol-Version': MODERN_PROTOCOL_VERSION };
    const list = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } },
      { ...headers, 'Mcp-Method': 'tools/list' },
    );
    expect(list.status).toBe(200);
    expect(list.reply.result?.resultType).toBe('complete');
    expect(((list.reply.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name)).toContain('usage');
    const used = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'usage', arguments: {}, _meta: MODERN_META } },
      { ...headers, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'usage' },
    );
    expect(used.status).toBe(200);
    expect(used.reply.result).toMatchObject({ resultType: 'complete' });
    expect(used.reply.result?.isError).toBeFalsy();
    // A name outside ASCII would come Base64-encoded; an ASCII one may too.
    const encoded = await post(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'usage', arguments: {}, _meta: MODERN_META } },
      { ...headers, 'Mcp-Method': 'tools/call', 'Mcp-Name': `=?base64?${Buffer.from('usage').toString('base64')}?=` },
    );
    expect(encoded.status).toBe(200);
    expect(encoded.reply.result?.isError).toBeFalsy();
  });

  it('refuses Mcp-Method or Mcp-Name headers that contradict the body, before the tool runs', async () => {
    const wrongMethod = await post(call(1), { 'Mcp-Method': 'tools/list' });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.reply.id).toBe(1);
    expect(wrongMethod.reply.error?.code).toBe(RPC_ERRORS.HEADER_MISMATCH);
    expect(wrongMethod.reply.error?.message).toMatch(/Mcp-Method/);
    const wrongName = await post(call(2), { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'usage' });
    expect(wrongName.status).toBe(400);
    expect(wrongName.reply.error?.code).toBe(RPC_ERRORS.HEADER_MISMATCH);
    expect(wrongName.reply.error?.message).toMatch(/Mcp-Name/);
    const wrongVersion = await post(
      { ...call(3), params: { ...call(3).params, _meta: MODERN_META } },
      { 'MCP-Protocol-Version': '2025-06-18' },
    );
    expect(wrongVersion.status).toBe(400);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('answers a missing or wrong key 401 with error="invalid_token", and offers no OAuth discovery', async () => {
    for (const authorization of ['', 'Bearer wrong-key-0123456789']) {
      const response = await fetch(`${harness.service.url}/mcp`, {
        method: 'POST',
        headers: { ...BASE_HEADERS, Authorization: authorization },
        body: JSON.stringify(call(1)),
      });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"\\]+"$/);
      expect(challenge).not.toMatch(/resource_metadata|scope=/);
    }
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${harness.service.url}${path}`);
      expect(response.status, path).not.toBe(200);
      expect(await response.text(), path).not.toMatch(/authorization_servers/);
    }
    // The SDK's client reports the refusal instead of trying to log in (it has no auth provider to start).
    const client = new Client({ name: 'mcp-protocol-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
      requestInit: { headers: { Authorization: 'Bearer wrong-key-0123456789' } },
    });
    await expect(client.connect(transport)).rejects.toThrow(/401|Unauthorized/i);
    expect(harness.upstream.calls()).toBe(0);
  });

  it('still serves a 2025 client through the SDK: initialize, tools/list and a call', async () => {
    const client = new Client({ name: 'mcp-protocol-test', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}` } },
    });
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject(SERVER_INFO);
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const result = await client.callTool({ name: 'web_search_alpha', arguments: { q: 'coffee' } });
    expect(result.isError).toBeFalsy();
    expect(harness.upstream.calls()).toBe(1);
    await client.close();
  });
});
