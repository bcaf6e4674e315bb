/**
 * Turns a local HTTP request into the API Gateway REST API Lambda-proxy event (payload format 1.0) that
 * production sends, with the same keys in the same places, so the handlers run exactly as deployed.
 */
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

const STAGE = 'local';

export function toApiGatewayEvent(
  req: IncomingMessage,
  resource: string,
  path: string,
  body: string,
  requestId: string,
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const query = new URL(req.url ?? '/', 'http://local').searchParams;
  const queryStringParameters: Record<string, string> = {};
  const multiValueQueryStringParameters: Record<string, string[]> = {};
  for (const [name, value] of query) {
    queryStringParameters[name] = value;
    multiValueQueryStringParameters[name] = [...(multiValueQueryStringParameters[name] ?? []), value];
  }
  const hasQuery = Object.keys(queryStringParameters).length > 0;
  const now = Date.now();
  const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
  return {
    resource,
    path,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? queryStringParameters : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQueryStringParameters : null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      resourceId: 'local',
      resourcePath: resource,
      httpMethod: req.method ?? 'GET',
      extendedRequestId: requestId,
      requestTime: new Date(now).toUTCString(),
      path: `/${STAGE}${path}`,
      accountId: '000000000000',
      protocol: `HTTP/${req.httpVersion}`,
      stage: STAGE,
      domainPrefix: 'localhost',
      requestTimeEpoch: now,
      requestId,
      identity: {
        cognitoIdentityPoolId: null,
        accountId: null,
        cognitoIdentityId: null,
        caller: null,
        sourceIp,
        principalOrgId: null,
        accessKey: null,
        cognitoAuthenticationType: null,
        cognitoAuthenticationProvider: null,
        userArn: null,
        userAgent: req.headers['user-agent'] ?? null,
        user: null,
        apiKey: null,
        apiKeyId: null,
        clientCert: null,
      },
      domainName: 'localhost',
      deploymentId: 'local',
      apiId: 'local',
      authorizer: null,
    },
    body: body === '' ? null : body,
    isBase64Encoded: false,
  } as APIGatewayProxyEvent;
}

// API Gateway's own integration limit; the function's deadline sits below it.
const GATEWAY_TIMEOUT_MS = 29_000;

/** A Lambda context like the one the runtime passes, with the function's remaining time. */
export function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + GATEWAY_TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
