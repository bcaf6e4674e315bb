/**
 * The answers API Gateway makes by itself, before or instead of a function, in the service's envelope:
 * keys refused by the authorizer, throttling, unknown paths, wrong methods, bodies too large, timeouts and
 * its own failures. Codes and
 * statuses come from the same table as the functions' (lib/errors.ts), so a client cannot tell which
 * layer answered except by the request id.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { ERROR_CODES, type ErrorCode } from '../lib/errors.js';
import { MAX_BODY_BYTES } from '../lib/middleware/body.js';
import { API_VERSION } from '../lib/version.js';

/** Gateway response templates substitute $context variables but run no VTL; values here are never client-controlled. */
export function envelopeTemplate(code: ErrorCode, details: string): string {
  return JSON.stringify({ success: false, message: ERROR_CODES[code].message, data: null, error: { code, details } });
}

/** The headers every function response carries too (lib/http.ts), as static mapping values. */
const STATIC_HEADERS = {
  'Content-Type': "'application/json; charset=utf-8'",
  'Cache-Control': "'no-store'",
  'X-Content-Type-Options': "'nosniff'",
  // The API's version on the gateway's own answers too, as on every function's (lib/version.ts).
  'X-Api-Version': `'${API_VERSION}'`,
} as const;

// API Gateway's own id for the request, the one its access log and the function's event carry. Mock
// integration responses may map it to a header; gateway responses are documented to take only static
// values, request parameters and stage variables, so there the id goes into the body's details (5xx)
// and API Gateway's own x-amzn-RequestId header carries it.
const REQUEST_ID = 'context.requestId';

export interface GatewayError {
  type: apigw.ResponseType;
  code: ErrorCode;
  details: string;
  /** Extra headers as mapping values ('static' in single quotes). */
  headers?: Record<string, string>;
}

const NOT_FOUND_DETAILS = 'No endpoint at this path; every endpoint is a POST under /v1';

/**
 * Every refused key gets the functions' own answer (lib/middleware/auth.ts): whether the header was
 * missing, malformed or the key unknown, the caller learns nothing about which.
 */
export const UNAUTHORIZED_DETAILS = 'Send the header "Authorization: Bearer <API key>" with a valid key';
const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': "'Bearer'" };

export const GATEWAY_ERRORS: readonly GatewayError[] = [
  // A REST API treats a path (or a method) it does not know as a request for an IAM-signed resource: with
  // no Authorization header it answers 403 "Missing Authentication Token"; with "Authorization: Bearer
  // ..." it answers 403 with a signature error whose default message quotes the whole header, the
  // client's key. No method here uses IAM signing, so each of these means only "no such endpoint".
  { type: apigw.ResponseType.MISSING_AUTHENTICATION_TOKEN, code: 'NOT_FOUND', details: NOT_FOUND_DETAILS },
  { type: apigw.ResponseType.INVALID_SIGNATURE, code: 'NOT_FOUND', details: NOT_FOUND_DETAILS },
  { type: apigw.ResponseType.EXPIRED_TOKEN, code: 'NOT_FOUND', details: NOT_FOUND_DETAILS },
  { type: apigw.ResponseType.RESOURCE_NOT_FOUND, code: 'NOT_FOUND', details: NOT_FOUND_DETAILS },
  // The authorizer: a missing or malformed header (refused by the identity validation expression, or
  // unreadable to the authorizer) is UNAUTHORIZED, an unknown key its Deny, ACCESS_DENIED. Both are the
  // functions' 401.
  { type: apigw.ResponseType.UNAUTHORIZED, code: 'UNAUTHORIZED', details: UNAUTHORIZED_DETAILS, headers: UNAUTHORIZED_HEADERS },
  { type: apigw.ResponseType.ACCESS_DENIED, code: 'UNAUTHORIZED', details: UNAUTHORIZED_DETAILS, headers: UNAUTHORIZED_HEADERS },
  // The authorizer failed (most often its secret store did not answer: it throws the functions' own 503)
  // or could not run. The gateway cannot tell which, and the key is not refused: a retry shortly is what
  // the client can do, so both are the functions' SERVICE_UNAVAILABLE, with the Retry-After of a secret
  // read's timeout (SECRETS_TIMEOUT_MS, 3 s by default). A lasting fault shows in the authorizer's alarms.
  {
    type: apigw.ResponseType.AUTHORIZER_FAILURE,
    code: 'SERVICE_UNAVAILABLE',
    details: 'The service could not check the key; retry shortly (request id $context.requestId)',
    headers: { 'Retry-After': "'3'" },
  },
  {
    type: apigw.ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    code: 'SERVICE_UNAVAILABLE',
    details: 'The service could not check the key; retry shortly (request id $context.requestId)',
    headers: { 'Retry-After': "'3'" },
  },
  // A valid key whose name has no API key in a usage plan (not in the `clients` setting): the operator's
  // mistake, never the client's, whose key must not be called invalid.
  {
    type: apigw.ResponseType.INVALID_API_KEY,
    code: 'SERVICE_MISCONFIGURED',
    details: 'This key has no rate plan at the gateway yet; its operator must add its name to the clients setting and deploy',
  },
  {
    type: apigw.ResponseType.THROTTLED,
    code: 'RATE_LIMITED',
    // The key's own usage plan (or an optional stage-wide limit, or the account's). The spending budget's
    // refusals are the functions' BUDGET_EXHAUSTED.
    details: 'More requests than this key (or this API) accepts; retry after the seconds in Retry-After',
    headers: { 'Retry-After': "'1'" },
  },
  // The usage plans have no quota, so this never fires; should one be set, it is a rate limit too.
  {
    type: apigw.ResponseType.QUOTA_EXCEEDED,
    code: 'RATE_LIMITED',
    details: "This key has used its gateway quota; retry after the quota's period",
  },
  {
    type: apigw.ResponseType.REQUEST_TOO_LARGE,
    code: 'PAYLOAD_TOO_LARGE',
    details: `body: must be at most ${MAX_BODY_BYTES} bytes`,
  },
  {
    type: apigw.ResponseType.UNSUPPORTED_MEDIA_TYPE,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    details: 'Content-Type: must be application/json',
  },
  {
    type: apigw.ResponseType.INTEGRATION_TIMEOUT,
    code: 'UPSTREAM_TIMEOUT',
    details: 'The request did not finish within the 29-second gateway limit; retry later',
  },
  {
    type: apigw.ResponseType.INTEGRATION_FAILURE,
    code: 'INTERNAL_ERROR',
    details: 'Unexpected error; quote request id $context.requestId when reporting it',
  },
  // The rest (validators, WAF at the gateway...) have no cause in this stack; whatever happens, the
  // client sees no gateway message (it may quote request headers), only the response type, an API
  // Gateway enum that is safe to name.
  {
    type: apigw.ResponseType.DEFAULT_4XX,
    code: 'INVALID_REQUEST',
    details: 'The gateway refused the request ($context.error.responseType)',
  },
  {
    type: apigw.ResponseType.DEFAULT_5XX,
    code: 'INTERNAL_ERROR',
    details: 'Unexpected error; quote request id $context.requestId when reporting it',
  },
];

/** Puts every gateway-made answer of this API into the envelope, with the status of its code. */
export function addGatewayResponses(api: apigw.RestApi): void {
  for (const error of GATEWAY_ERRORS) {
    api.addGatewayResponse(error.type.responseType, {
      type: error.type,
      statusCode: String(ERROR_CODES[error.code].status),
      responseHeaders: { ...STATIC_HEADERS, ...error.headers },
      templates: { 'application/json': envelopeTemplate(error.code, error.details) },
    });
  }
}

const METHOD_NOT_ALLOWED_HEADERS = { ...STATIC_HEADERS, Allow: "'POST'", 'X-Request-Id': REQUEST_ID } as const;

/**
 * An ANY method on an endpoint's resource answers every method but POST (which has its own method and
 * wins) with 405 and `Allow: POST`, from the gateway itself: no function runs, nothing is billed beyond
 * the API request. With no request template, a mock integration answers its default integration
 * response whatever the body or Content-Type, so method is checked before content type, as specified.
 */
export function addMethodNotAllowed(resource: apigw.IResource): apigw.Method {
  const integration = new apigw.MockIntegration({
    passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
    integrationResponses: [
      {
        statusCode: String(ERROR_CODES.METHOD_NOT_ALLOWED.status),
        responseParameters: Object.fromEntries(
          Object.entries(METHOD_NOT_ALLOWED_HEADERS).map(([name, value]) => [`method.response.header.${name}`, value]),
        ),
        // A VTL template; $context.httpMethod is a method token, never free text.
        responseTemplates: {
          'application/json': envelopeTemplate('METHOD_NOT_ALLOWED', '$context.httpMethod is not allowed here; use POST'),
        },
      },
    ],
  });
  // The API's default method options apply: the authorizer and the key's usage plan, as on POST, so that a
  // stranger's GET is refused before it counts anywhere and a client's counts against its own rate.
  return resource.addMethod('ANY', integration, {
    methodResponses: [
      {
        statusCode: String(ERROR_CODES.METHOD_NOT_ALLOWED.status),
        responseParameters: Object.fromEntries(
          Object.keys(METHOD_NOT_ALLOWED_HEADERS).map((name) => [`method.response.header.${name}`, true]),
        ),
      },
    ],
  });
}
