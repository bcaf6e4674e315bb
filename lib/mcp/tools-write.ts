/**
 * `npm run mcp:tools`: writes lib/mcp/tool-list.json, the MCP server's tool list, from the routes table and
 * the request schemas (tools.ts). A test fails while the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { settleDocumentEnvironment } from '../local/document-env.js';

// Before the handlers load: they read the service's configuration, which the list needs none of.
settleDocumentEnvironment();

const { renderToolList, TOOL_LIST_FILE, toolDefinitions } = await import('./tools.js');
const tools = await toolDefinitions();
writeFileSync(TOOL_LIST_FILE, renderToolList(tools));
console.log(`Wrote lib/mcp/tool-list.json (${tools.length} tools)`);
