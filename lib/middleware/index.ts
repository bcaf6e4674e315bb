/**
 * `api()` is the one place that fixes the middleware order every endpoint shares:
 * request id → access log → metrics → last resort → envelope → method → auth → body (size, type, JSON) →
 * validation → handler. middy runs `before` in this order and `after`/`onError` in reverse, so the envelope
 * sees every error, the last resort (@middy/http-error-handler) answers if the envelope itself failed, the
 * access log and the metrics see the final status, and the request id is stamped on whatever goes out.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { refreshPlanNumbers } from '../budget/account.js';
import type { KeyLimits } from '../budget/budget.js';
import { prepareBudgetCounter } from '../budget/deployment.js';
import { withAnswerCache } from '../cache/answer-cache.js';
import { sharedCacheTable } from '../cache/dynamo-table.js';
import { type CacheScope, cacheScope, settleCacheWrites } from '../cache/shared.js';
import { holdsUpstreamKey } from '../credentials/upstream-key.js';
import type { HandlerResult } from '../envelope.js';
import { header } from '../http.js';
import type { ApiContext } from '../request-state.js';
import { type Upstream, upstreamFor } from '../upstream/serpapi.js';
import { accessLog } from './access-log.js';
import { auth } from './auth.js';
import { jsonBody } from './body.js';
import { envelope } from './envelope.js';
import { lastResort } from './last-resort.js';
import { postOnly } from './method.js';
import { metrics } from './metrics.js';
import { requestId } from './request-id.js';
import { validate } from './validate.js';

export interface HandlerInput<Body> {
  body: Body;
  /** Searches answered from the caches where possible (README, "Caching"). */
  upstream: Upstream;
  requestId: string;
  /** This request's cache scope, for a handler that caches in a form of its own (citations). */
  cache: CacheScope;
  /** The authenticated caller: its key's name and limits (the budget, /v1/usage). */
  client: { name: string } & KeyLimits;
  /** A request header by name, whatever its case (a job's Idempotency-Key). */
  header(name: string): string | undefined;
}

/**
 * At cold start, outside every request's budget: the shared tables' SDK client is made and its first
 * connection opened (a fresh container's first table read would otherwise pay for both and miss the
 * cache's 150 ms read budget), and the plan's numbers are asked for in the background, by the functions
 * that hold the SerpApi key: a free route never loads it (lib/routes.ts, `needs.upstreamKey`).
 */
const readsPlanNumbers = holdsUpstreamKey();
if (readsPlanNumbers) refreshPlanNumbers();
await Promise.all([sharedCacheTable()?.prepare?.(), prepareBudgetCounter()]);

export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export function api<Schema extends z.ZodMiniType>(options: { body: Schema }) {
  return {
    handler<Data>(main: (input: HandlerInput<z.output<Schema>>) => Promise<HandlerResult<Data>>): LambdaHandler {
      const core = async (event: APIGatewayProxyEvent, context: Context) => {
        const { api: state } = context as ApiContext;
        const cache = cacheScope(state);
        const upstream = withAnswerCache(upstreamFor(state), state.path, cache);
        const client = { name: state.client ?? 'unknown', ...state.clientLimits };
        try {
          return await main({
            body: state.body as z.output<Schema>,
            upstream,
            requestId: state.requestId,
            cache,
            client,
            header: (name) => header(event, name),
          });
        } finally {
          // The plan's numbers, read in the background when stale; never awaited by a request.
          if (readsPlanNumbers) refreshPlanNumbers();
          // A Lambda container freezes once it answers: new answers reach the shared table first (bounded), the
          // budget gets back what the request reserved and did not use, and nothing more is sent for it.
          await Promise.all([settleCacheWrites(state), upstream.close()]);
        }
      };
      const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, ApiContext>()
        .use(requestId())
        .use(accessLog())
        .use(metrics())
        .use(lastResort())
        .use(envelope())
        .use(postOnly())
        .use(auth())
        .use(jsonBody())
        .use(validate(options.body))
        .handler(core as unknown as (event: APIGatewayProxyEvent, context: ApiContext) => Promise<APIGatewayProxyResult>);
      return chain as unknown as LambdaHandler;
    },
  };
}
