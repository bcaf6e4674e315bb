import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const client = new Client({ name: 'c', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3901/mcp'), { requestInit: { headers: { Authorization: 'Bearer demo-key' } } }));
const r = await client.callTool({ name: process.argv[2], arguments: JSON.parse(process.argv[3]) });
console.log((r.content as { text: string }[]).map((c) => c.text).join('\n'));
console.log('_meta', JSON.stringify(r._meta));
