/**
 * The MCP tools, generated from the routes table: one per endpoint, its input schema the request schema
 * the endpoint's validation runs (functions/<name>.ts `requestSchema`), written by zod as the OpenAPI
 * document's is, then made compact for a model's context (compactSchema): long patterns and long code
 * lists are said in words, since the endpoint's own validation still enforces them and its error names
 * the field; what the server's instructions say of every tool (paging, the cache, text fields) is not said
 * again per field. No output schemas: the text says what the data holds, and they cost a model's context
 * more than any client gained from them. A call runs the endpoint's own Lambda handler, so a new route
 * is a new tool with no code here.
 *
 * Building the list loads every endpoint's module (the request schemas live there), the citation pipeline
 * included: far more than a container should load to answer `tools/list`. So the list is built ahead, by
 * `npm run mcp:tools`, into tool-list.json, which the server answers from (lib/mcp/server.ts) and esbuild
 * compiles into the function; a test fails while the file differs from what this module builds.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
// The very function that writes the OpenAPI document's schemas, so the tools' schemas cannot drift from it.
import { toSchema } from '../openapi.js';
import { ROUTES, type Route } from '../routes.js';
import { CHANGING_ROUTES, CLOSED_WORLD_ROUTES, FIELD_NOTES, toolDescription, toolName, toolTitle } from './descriptions.js';

/** Where the built list is kept: lib/mcp/tool-list.json, committed, read by the server. */
export const TOOL_LIST_FILE = new URL('./tool-list.json', import.meta.url);

/** The list as tool-list.json holds it: the tools in the routes table's order, as indented JSON. */
export function renderToolList(tools: readonly Tool[]): string {
  return `${JSON.stringify(tools, null, 2)}\n`;
}

async function requestSchemaOf(route: Route): Promise<z.ZodMiniType> {
  const fn = (await import(`../../functions/${route.name}.ts`)) as { requestSchema?: z.ZodMiniType };
  if (!fn.requestSchema) throw new Error(`${route.path}: functions/${route.name}.ts exports no requestSchema`);
  return fn.requestSchema;
}

/** MCP requires object schemas at the top; every request body and every data object is one. */
function objectSchema(schema: z.ZodMiniType, io: 'input' | 'output', where: string) {
  const json = toSchema(schema, io, where);
  if (json.type !== 'object') throw new Error(`${where}: an MCP tool schema must be an object schema`);
  return json as Tool['inputSchema'];
}

/** The longest pattern a tool's schema keeps; a longer one is said in the field's description instead. */
export const MAX_PATTERN_CHARS = 200;
/** The most values an enum keeps; a longer code list is described (FIELD_NOTES), not enumerated. */
export const MAX_ENUM_VALUES = 30;
/**
 * The start of every free-text field's pattern (lib/schema.ts): optional surrounding white space around
 * text without control characters. Said once, in the server's instructions, rather than per field.
 */
const TEXT_PATTERN_START = '^[\\t\\n\\x0b\\x0c\\r \\xa0';

type JsonSchema = Record<string, unknown>;
const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A schema as a model reads it and every client accepts it: patterns over MAX_PATTERN_CHARS and free-text
 * patterns dropped, enums over MAX_ENUM_VALUES dropped (the field's note in FIELD_NOTES says the rule),
 * `type: [X, "null"]` written as anyOf, and no bare `{}` (an "anything" is said as its description).
 * Returns whether a free-text pattern was dropped, so the description can say that rule once.
 */
export function compactSchema(
  schema: JsonSchema,
  notes: Readonly<Record<string, string>> = {},
): { schema: JsonSchema; text: boolean } {
  let text = false;
  const walk = (node: unknown, field: string | undefined): unknown => {
    if (Array.isArray(node)) return node.map((inner) => walk(inner, field));
    if (!isSchema(node)) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') {
        const freeText = value.startsWith(TEXT_PATTERN_START);
        text ||= freeText;
        if (freeText || value.length > MAX_PATTERN_CHARS) continue;
      }
      if (key === 'enum' && Array.isArray(value) && value.length > MAX_ENUM_VALUES) {
        // Every value of the long lists is an integer id (Google Trends' categories).
        if (node.type === 'number' && value.every(Number.isInteger)) out.type = 'integer';
        continue;
      }
      if (key === 'type' && Array.isArray(value)) continue;
      // An array's items are described by the field itself.
      if (key === 'items' && isSchema(value)) {
        const { description: _said, ...items } = value;
        out.items = walk(items, undefined);
        continue;
      }
      if (key === 'properties' && isSchema(value)) {
        out.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, walk(inner, name)]));
        continue;
      }
      if (key === 'description' && field !== undefined && notes[field] !== undefined) continue;
      // A default a model would assume anyway (off, none, the first page) is not worth its tokens.
      if (key === 'default' && (value === false || (Array.isArray(value) && value.length === 0) || field === 'page')) continue;
      out[key] = isSchema(value) && Object.keys(value).length === 0 ? { description: 'Any JSON value' } : walk(value, undefined);
    }
    if (field !== undefined && notes[field]) out.description = notes[field];
    const types = Array.isArray(node.type) ? (node.type as string[]) : undefined;
    if (types) {
      // anyOf of one schema per type: what `type: [X, "null"]` says, in the form every client reads.
      const { description, ...rest } = out;
      const only = Object.fromEntries(Object.entries(rest).filter(([key]) => key !== 'default'));
      return {
        ...(description === undefined ? {} : { description }),
        ...('default' in rest ? { default: rest.default } : {}),
        anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...only })),
      };
    }
    return out;
  };
  return { schema: walk(schema, undefined) as JsonSchema, text };
}

/** One route's tool definition, as tools/list answers it. */
export async function toolDefinition(route: Route): Promise<Tool> {
  const where = `${route.path} (MCP tool)`;
  const input = compactSchema(objectSchema(await requestSchemaOf(route), 'input', where), {
    ...FIELD_NOTES['*'],
    ...FIELD_NOTES[route.name],
  });
  return {
    name: toolName(route.name),
    title: toolTitle(route),
    description: toolDescription(route),
    inputSchema: input.schema as Tool['inputSchema'],
    // Every search reaches the open web through the upstream, and citation resolving through Crossref; the
    // budget, the style catalogue and a job's store are the service's own. The destructive and idempotent
    // hints are read only when readOnlyHint is false: given only for the tools that change something.
    annotations: {
      readOnlyHint: CHANGING_ROUTES[route.name] === undefined,
      ...CHANGING_ROUTES[route.name],
      openWorldHint: !CLOSED_WORLD_ROUTES.has(route.name),
    },
  };
}

/** Every route's tool definition, in the routes table's order: what tool-list.json holds. */
export function toolDefinitions(routes: readonly Route[] = ROUTES): Promise<Tool[]> {
  return Promise.all(routes.map(toolDefinition));
}
