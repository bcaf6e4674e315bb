/**
 * The official MCP TypeScript clients in every mode they offer, connected to a URL with a key, each
 * keeping every JSON-RPC answer it received (the raw wire), so that a test can check the answers as well
 * as what the client made of them:
 * - the 1.x SDK (`@modelcontextprotocol/sdk`), which speaks the 2025 revisions;
 * - `@modelcontextprotocol/client` 2.x in its three version-negotiation modes: `legacy` (the 2025
 *   handshake), `auto` (probes `server/discover`, then the newest revision both speak) and pinned to
 *   `2026-07-28` (the stateless revision or nothing).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const CLIENT_MODES = ['sdk-1.x', 'client-2.x legacy', 'client-2.x auto', 'client-2.x pinned 2026-07-28'] as const;
export type ClientMode = (typeof CLIENT_MODES)[number];

/** One JSON-RPC exchange as it went over the wire. */
export interface WireExchange {
  method: string;
  protocolVersionHeader: string | null;
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: raw JSON-RPC answers of any shape
  reply: any;
}

/** What the tests call on every client alike. */
export interface McpTestClient {
  mode: ClientMode;
  /** The revision the client and server agreed on. */
  version: string | undefined;
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  wire: WireExchange[];
  close(): Promise<void>;
}

export interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** A fetch that records each JSON-RPC request's method and the answer it got. */
function recordingFetch(wire: WireExchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    let method = '';
    try {
      method = String((JSON.parse(String(init?.body ?? '')) as { method?: unknown }).method ?? '');
    } catch {
      // Not a JSON-RPC message (a GET for a stream): nothing to record.
    }
    const headers = new Headers(init?.headers);
    const text = await response.clone().text();
    const json = text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? '');
    wire.push({
      method,
      protocolVersionHeader: headers.get('mcp-protocol-version'),
      status: response.status,
      reply: json ? JSON.parse(json) : undefined,
    });
    return response;
  };
}

export async function connectClient(mode: ClientMode, url: string, key: string): Promise<McpTestClient> {
  const wire: WireExchange[] = [];
  const options = { requestInit: { headers: { Authorization: `Bearer ${key}` } }, fetch: recordingFetch(wire) };
  if (mode === 'sdk-1.x') {
    const client = new ClientV1({ name: 'conformance-sdk-1', version: '1.0.0' });
    const transport = new TransportV1(new URL(url), options);
    await client.connect(transport);
    return {
      mode,
      version: transport.protocolVersion,
      listTools: () => client.listTools(),
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
      wire,
      close: () => client.close(),
    };
  }
  const negotiation =
    mode === 'client-2.x legacy' ? 'legacy' : mode === 'client-2.x auto' ? 'auto' : ({ pin: '2026-07-28' } as const);
  const client = new ClientV2({ name: 'conformance-client-2', version: '1.0.0' }, { versionNegotiation: { mode: negotiation } });
  await client.connect(new TransportV2(new URL(url), options));
  return {
    mode,
    version: client.getNegotiatedProtocolVersion(),
    listTools: () => client.listTools(),
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    wire,
    close: () => client.close(),
  };
}

export const textOf = (result: ToolResult) => result.content.map((part) => part.text ?? '').join('\n');
