import { getEncoding } from 'js-tiktoken';
import { routeTools } from './lib/mcp/tools.js';
const enc = getEncoding('cl100k_base');
const tools = [...(await routeTools()).values()].map((t) => t.definition);
let max = 0;
for (const t of tools) {
  const all = enc.encode(JSON.stringify(t)).length; max = Math.max(max, all);
  console.log(t.name.padEnd(26), all, 'desc', enc.encode(t.description ?? '').length, 'input', enc.encode(JSON.stringify(t.inputSchema)).length);
}
const list = enc.encode(JSON.stringify({ tools })).length;
console.log('list', list, 'per tool', (list / tools.length).toFixed(1), 'max', max, 'chars', JSON.stringify({ tools }).length);
if (process.argv[2]) for (const t of tools.filter((t) => t.name === process.argv[2])) console.log(JSON.stringify(t));
