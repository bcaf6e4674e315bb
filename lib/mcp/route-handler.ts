/**
 * A tool's endpoint, loaded on the tool's first call in a container: one route's functions/<name>.ts, not
 * the others (lib/mcp/server.ts). Listing the tools loads none (tool-list.json, tools.ts).
 */
import type { LambdaHandler } from '../middleware/index.js';
import type { Route } from '../routes.js';

/** A tool as a call needs it: its route (the path the call is aimed at) and the route's Lambda handler. */
export interface RouteTool {
  route: Route;
  handler: LambdaHandler;
}

/**
 * The route's handler. A template-literal import: Node resolves it at run time, and esbuild bundles every
 * file the pattern can match (functions/*.ts), so the Lambda bundle holds every route without a list here.
 */
export async function routeHandler(route: Route): Promise<LambdaHandler> {
  const module = (await import(`../../functions/${route.name}.ts`)) as { handler?: LambdaHandler };
  if (typeof module.handler !== 'function') throw new Error(`${route.path}: functions/${route.name}.ts exports no handler`);
  return module.handler;
}
