/**
 * The 2026-07-28 revision as the reference SDK reads it: the same raw requests sent to this server (over
 * HTTP, the real handler) and to a server built on the reference SDK (`@modelcontextprotocol/server` 2.4,
 * `createMcpHandler`, one tool named like ours), and their answers compared: HTTP status, JSON-RPC error
 * code, the supported versions of a -32022, and the cache fields of a cacheable result. The cases are the
 * rungs of the reference's ladder: the per-request envelope, the required headers, the version checks.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { MODERN_PROTOCOL_VERSION, RPC_ERRORS } from '../../lib/mcp/server.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const harness = useService();

const reference = createMcpHandler(() => {
  const server = new McpServer({ name: 'reference', version: '1.0.0' });
  server.registerTool('usage', { description: 'The budget', inputSchema: z.object({}) }, async () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  return server;
});
afterAll(() => reference.close());

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
const MODERN = { 'MCP-Protocol-Version': MODERN_PROTOCOL_VERSION };

interface Case {
  name: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params });
const list = (meta: Record<string, unknown> | undefined = ENVELOPE) =>
  request(1, 'tools/list', meta === undefined ? {} : { _meta: meta });
const call = (name = 'usage', meta: Record<string, unknown> = ENVELOPE) =>
  request(2, 'tools/call', { name, arguments: {}, _meta: meta });
const base64 = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;
const withoutKey = (key: string) => Object.fromEntries(Object.entries(ENVELOPE).filter(([k]) => k !== key));

const CASES: Case[] = [
  { name: 'tools/list, envelope and headers', body: list(), headers: { ...MODERN, 'Mcp-Method': 'tools/list' } },
  {
    name: 'server/discover',
    body: request(3, 'server/discover', { _meta: ENVELOPE }),
    headers: { ...MODERN, 'Mcp-Method': 'server/discover' },
  },
  // The 2026-07-28 revision has no ping and no initialize: methods it does not have.
  { name: 'ping', body: request(4, 'ping', { _meta: ENVELOPE }), headers: { ...MODERN, 'Mcp-Method': 'ping' } },
  {
    name: 'initialize with a 2026 envelope',
    body: request(7, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
      _meta: ENVELOPE,
    }),
    headers: { ...MODERN, 'Mcp-Method': 'initialize' },
  },
  {
    name: 'an unknown method',
    body: request(8, 'tools/frobnicate', { _meta: ENVELOPE }),
    headers: { ...MODERN, 'Mcp-Method': 'tools/frobnicate' },
  },
  { name: 'an unknown method, 2025', body: request(9, 'tools/frobnicate'), headers: {} },
  { name: 'ping, 2025', body: request(10, 'ping'), headers: {} },
  { name: 'tools/call with Mcp-Name', body: call(), headers: { ...MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'usage' } },
  {
    name: 'tools/call, Mcp-Name Base64-encoded',
    body: call(),
    headers: { ...MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': base64('usage') },
  },
  { name: 'no MCP-Protocol-Version header', body: list(), headers: { 'Mcp-Method': 'tools/list' } },
  { name: 'no Mcp-Method header', body: list(), headers: { ...MODERN } },
  { name: 'tools/call without Mcp-Name', body: call(), headers: { ...MODERN, 'Mcp-Method': 'tools/call' } },
  { name: 'Mcp-Name naming another tool', body: call(), headers: { ...MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'other' } },
  {
    name: 'Mcp-Name with a broken Base64 sentinel',
    body: call(),
    headers: { ...MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': '=?base64?***?=' },
  },
  { name: 'Mcp-Method naming another method', body: list(), headers: { ...MODERN, 'Mcp-Method': 'tools/call' } },
  {
    name: 'header and envelope naming different versions',
    body: list(),
    headers: { 'MCP-Protocol-Version': '2025-06-18', 'Mcp-Method': 'tools/list' },
  },
  {
    name: 'envelope without clientCapabilities',
    body: list(withoutKey('io.modelcontextprotocol/clientCapabilities')),
    headers: { ...MODERN, 'Mcp-Method': 'tools/list' },
  },
  {
    name: 'envelope version not a string',
    body: list({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 20260728 }),
    headers: { 'Mcp-Method': 'tools/list' },
  },
  {
    name: 'envelope clientInfo without a version',
    body: list({ ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'x' } }),
    headers: { ...MODERN, 'Mcp-Method': 'tools/list' },
  },
  {
    name: 'a later revision the server does not serve',
    body: list({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
    headers: { 'MCP-Protocol-Version': '2099-01-01', 'Mcp-Method': 'tools/list' },
  },
  {
    name: 'a 2025 version named in the envelope',
    body: list({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-06-18' }),
    headers: { 'MCP-Protocol-Version': '2025-06-18', 'Mcp-Method': 'tools/list' },
  },
  { name: 'a 2026 header without the envelope', body: list(undefined), headers: { ...MODERN, 'Mcp-Method': 'tools/list' } },
  {
    name: 'initialize sent with a 2026 header',
    body: request(5, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
    headers: { ...MODERN },
  },
  {
    name: 'a 2025 initialize',
    body: request(6, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
    headers: {},
  },
  {
    name: 'a 2026 notification',
    body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: ENVELOPE } },
    headers: { ...MODERN, 'Mcp-Method': 'notifications/cancelled' },
  },
];

interface Answer {
  status: number;
  code?: number;
  supported?: unknown;
  cacheFields?: string;
  resultType?: unknown;
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  // The reference may answer a result as a one-event stream; the message is its data line.
  const json = text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? '');
  const message = (json ? JSON.parse(json) : {}) as {
    error?: { code: number; data?: { supported?: unknown } };
    result?: Record<string, unknown>;
  };
  const result = message.result;
  return {
    status: response.status,
    code: message.error?.code,
    supported: message.error?.data?.supported,
    cacheFields: result && `${typeof result.ttlMs} ${['public', 'private'].includes(String(result.cacheScope))}`,
    resultType: result?.resultType,
  };
}

describe('the 2026-07-28 revision, against the reference SDK', () => {
  for (const { name, body, headers } of CASES) {
    it(`answers as the reference does: ${name}`, async () => {
      const init = { method: 'POST', body: JSON.stringify(body) };
      const ours = await read(
        await fetch(`${harness.service.url}/mcp`, {
          ...init,
          headers: { ...HEADERS, ...headers, Authorization: `Bearer ${TEST_CLIENT_KEY}` },
        }),
      );
      const theirs = await read(
        await reference.fetch(new Request('http://reference/mcp', { ...init, headers: { ...HEADERS, ...headers } })),
      );
      expect(ours, name).toEqual(theirs);
    });
  }

  it('names the supported versions in -32022, and requires the cache fields on a tool list', async () => {
    const refused = await fetch(`${harness.service.url}/mcp`, {
      method: 'POST',
      headers: {
        ...HEADERS,
        'MCP-Protocol-Version': '2099-01-01',
        'Mcp-Method': 'tools/list',
        Authorization: `Bearer ${TEST_CLIENT_KEY}`,
      },
      body: JSON.stringify(list({ ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' })),
    });
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { code: number; data: unknown } };
    expect(error.code).toBe(RPC_ERRORS.UNSUPPORTED_PROTOCOL_VERSION);
    expect(error.data).toEqual({ supported: [MODERN_PROTOCOL_VERSION], requested: '2099-01-01' });
  });
});
