import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { REQUEST_EXAMPLES } from './lib/openapi-examples.js';
import { ROUTES } from './lib/routes.js';
import { toolName } from './lib/mcp/descriptions.js';
import { missingFromText, leaves } from './test/support/text-coverage.js';
const client = new Client({ name: 'c', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3901/mcp'), { requestInit: { headers: { Authorization: 'Bearer demo-key' } } }));
let all = 0, miss = 0;
const extra: Record<string, unknown> = { 'cite-search': { query: 'bananas', results: 3, export: ['bibtex', 'ris', 'csl-json'] } };
for (const route of ROUTES) {
  const args = extra[route.name] ?? REQUEST_EXAMPLES[route.name]?.value;
  const r = await client.callTool({ name: toolName(route.name), arguments: args as Record<string, unknown> });
  const text = (r.content as { text: string }[]).map((c) => c.text).join('\n');
  const m = missingFromText(r.structuredContent, text);
  const n = [...leaves(r.structuredContent)].length;
  all += n; miss += m.length;
  console.log(route.name, r.isError ? 'ERROR' : '', 'text', text.length, 'leaves', n, 'missing', m.length);
  for (const x of m.slice(0, 12)) console.log('   ', x);
}
console.log('total', all, 'missing', miss);
