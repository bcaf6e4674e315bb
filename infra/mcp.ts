/**
 * The MCP endpoint in the stack: POST /mcp served by one more function with the house defaults
 * (infra/api-function.ts: bundled by esbuild, never node_modules; its own role, log group, secrets,
 * cache and budget grants, the same environment), and the gateway's own 405 for every other method.
 * It runs every endpoint's handler in-process, so it needs exactly the grants and settings the endpoints
 * have: it takes the very props they get. It draws on the stage-wide flood guard like every method; its
 * money is the spending budget's, counted per tool call inside the endpoint handlers.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { PACE_KEYS, type Route } from '../lib/routes.js';
import { ApiFunction, type ApiFunctionProps } from './api-function.js';
import { addMethodNotAllowed } from './gateway-responses.js';

/**
 * The function's entry (functions/mcp.ts) and path. Not in the routes table: it is no tool of itself and
 * no operation of the OpenAPI document. The tag is unused by the construct.
 */
export const MCP_ROUTE: Route = {
  path: '/mcp',
  name: 'mcp',
  summary: 'MCP server: every endpoint as a tool',
  tag: 'Usage',
  // Every endpoint's needs at once: it runs every handler. Its cache keys are its own (cacheKeyPrefix('mcp')).
  needs: {
    paidCalls: true,
    upstreamKey: true,
    budget: 'reserve',
    sharedCache: true,
    paces: [PACE_KEYS.crossref, PACE_KEYS.datacite],
    jobs: ['submit', 'read', 'cancel'],
  },
};

export interface McpEndpointProps {
  api: apigw.RestApi;
  /** The props every endpoint's function gets, less its route. */
  functionProps: Omit<ApiFunctionProps, 'route'>;
}

export class McpEndpoint extends Construct {
  readonly fn: ApiFunction;
  readonly method: apigw.Method;

  constructor(scope: Construct, id: string, props: McpEndpointProps) {
    super(scope, id);
    this.fn = new ApiFunction(this, 'Endpoint', { ...props.functionProps, route: MCP_ROUTE });
    const resource = props.api.root.resourceForPath(MCP_ROUTE.path);
    // As for every endpoint: only this stage's POST may invoke the function (no console test-invoke).
    this.method = resource.addMethod('POST', new apigw.LambdaIntegration(this.fn.function, { allowTestInvoke: false }));
    // GET (a server-sent event stream) and DELETE (end a session) do not exist on a stateless server:
    // the transport lets it answer 405, here from the gateway without running the function.
    addMethodNotAllowed(resource);
  }
}
