/**
 * The MCP tools, generated from the routes table: one per endpoint, its input schema the request schema
 * the endpoint's validation runs (functions/<name>.ts `requestSchema`), its output schema the endpoint's
 * success data (lib/contract/<name>.ts `responseSchema`), both written by zod as the OpenAPI document's
 * are. A call runs the endpoint's own Lambda handler, so a new route is a new tool with no code here.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import type { LambdaHandler } from '../middleware/index.js';
// The very function that writes the OpenAPI document's schemas, so the tools' schemas cannot drift from it.
import { toSchema } from '../openapi.js';
import { ROUTES, type Route } from '../routes.js';
import { toolDescription, toolName } from './descriptions.js';

export interface RouteTool {
  route: Route;
  handler: LambdaHandler;
  definition: Tool;
}

// Template-literal imports: Node resolves them at run time, and esbuild bundles every file the pattern can
// match (functions/*.ts, lib/contract/*.ts), so the Lambda bundle holds every route without a list here.
async function routeModules(route: Route) {
  const [fn, contract] = await Promise.all([
    import(`../../functions/${route.name}.ts`) as Promise<{ handler?: LambdaHandler; requestSchema?: z.ZodMiniType }>,
    import(`../contract/${route.name}.ts`) as Promise<{ responseSchema?: z.ZodMiniType }>,
  ]);
  if (typeof fn.handler !== 'function' || !fn.requestSchema || !contract.responseSchema) {
    throw new Error(`${route.path}: functions/${route.name}.ts or lib/contract/${route.name}.ts lacks its exports`);
  }
  return { handler: fn.handler, requestSchema: fn.requestSchema, responseSchema: contract.responseSchema };
}

/** MCP requires object schemas at the top; every request body and every data object is one. */
function objectSchema(schema: z.ZodMiniType, io: 'input' | 'output', where: string) {
  const json = toSchema(schema, io, where);
  if (json.type !== 'object') throw new Error(`${where}: an MCP tool schema must be an object schema`);
  return json as Tool['inputSchema'];
}

async function routeTool(route: Route): Promise<RouteTool> {
  const { handler, requestSchema, responseSchema } = await routeModules(route);
  const where = `${route.path} (MCP tool)`;
  const free = route.tag === 'Usage';
  return {
    route,
    handler,
    definition: {
      name: toolName(route.name),
      title: route.summary,
      description: toolDescription(route),
      inputSchema: objectSchema(requestSchema, 'input', where),
      outputSchema: objectSchema(responseSchema, 'output', where),
      annotations: {
        title: route.summary,
        readOnlyHint: true,
        destructiveHint: false,
        // A repeated call may be answered from the cache, but a fresh one is another paid search.
        idempotentHint: free,
        // Every search reaches the open web through the upstream.
        openWorldHint: !free,
      },
    },
  };
}

let loaded: Promise<Map<string, RouteTool>> | undefined;

/** Every route's tool by tool name, built once per container. */
export function routeTools(routes: readonly Route[] = ROUTES): Promise<Map<string, RouteTool>> {
  if (routes !== ROUTES) return build(routes);
  loaded ??= build(routes).catch((error) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function build(routes: readonly Route[]): Promise<Map<string, RouteTool>> {
  const tools = await Promise.all(routes.map(routeTool));
  return new Map(tools.map((tool) => [tool.definition.name, tool]));
}
