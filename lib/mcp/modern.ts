/**
 * Which revision a request speaks, and what the 2026-07-28 revision refuses before any method runs, as
 * the reference SDK (`@modelcontextprotocol/server` 2.4: `classifyInboundRequest`,
 * `validateStandardRequestHeaders`, `serveModern`) reads it, so that the official clients meet the same
 * answers here as from a server built on it:
 *
 * - The body decides: a request whose `params._meta` holds the protocol-version key (the per-request
 *   envelope) is a 2026-07-28 request; one without it is a 2025 request, negotiated by `initialize`.
 * - The envelope must hold the version and the client's capabilities (an object), and a client identity,
 *   when given, a name and a version: -32602 (HTTP 400) naming the key.
 * - A version the server does not serve is -32022 (HTTP 400) with `{supported, requested}`, so the client
 *   can pick one and go on.
 * - `MCP-Protocol-Version` and `Mcp-Method` are required on every 2026-07-28 request, and `Mcp-Name` on a
 *   `tools/call`; absent or contradicting the body, -32020 (HTTP 400). A 2026 header on a request without
 *   the envelope is -32602.
 * - On a 2025 request the headers are optional, but one that contradicts the body is refused all the same
 *   (-32020), and an unknown version header is the 2025 transport's -32000 with the versions it knows.
 */

/** JSON-RPC's own codes, and those the 2026-07-28 revision adds. */
export const RPC_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  /** A transport-level refusal of a 2025 request (content type, protocol version), as the SDK answers them. */
  SERVER_ERROR: -32000,
  /** Headers absent or contradicting the body (2026-07-28). */
  HEADER_MISMATCH: -32020,
  /** A protocol version the server does not serve; the data lists those it does (2026-07-28). */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

/** The stateless revision. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The stateless revisions this server serves: what `server/discover` lists. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** The envelope's keys (`io.modelcontextprotocol/…`), the same in every SDK. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A revision of the stateless era: the reference compares the date strings. */
const isModernVersion = (version: string) => version >= MODERN_PROTOCOL_VERSION;

/** Optional white space around a header's value (RFC 9110's OWS: spaces and tabs only). */
const stripOws = (value: string) => value.replace(/^[ \t]+|[ \t]+$/g, '');

const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A header value as sent, or decoded from `=?base64?…?=`; undefined when that encoding is broken. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  const encoded = value.slice(9, -2);
  if (!BASE64_CANONICAL.test(encoded)) return undefined;
  const decoded = Buffer.from(encoded, 'base64');
  const text = decoded.toString('utf8');
  // Bytes that are not UTF-8 come back with U+FFFD: refuse rather than compare a guess.
  return Buffer.from(text, 'utf8').equals(decoded) ? text : undefined;
}

/** The problems of a 2026-07-28 envelope, `key: problem`, missing keys first. */
export function envelopeProblems(meta: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of [META.protocolVersion, META.clientCapabilities]) if (!(key in meta)) problems.push(`${key}: missing`);
  if (META.protocolVersion in meta && typeof meta[META.protocolVersion] !== 'string')
    problems.push(`${META.protocolVersion}: expected a string`);
  if (META.clientCapabilities in meta && !isObject(meta[META.clientCapabilities]))
    problems.push(`${META.clientCapabilities}: expected an object`);
  const info = meta[META.clientInfo];
  if (info !== undefined && !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string'))
    problems.push(`${META.clientInfo}: expected an object with a name and a version`);
  const level = meta[META.logLevel];
  if (level !== undefined && !(typeof level === 'string' && LOG_LEVELS.has(level)))
    problems.push(`${META.logLevel}: expected a logging level`);
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !(typeof token === 'number' && Number.isInteger(token)))
    problems.push('progressToken: expected a string or an integer');
  return problems;
}

export interface Headers2026 {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

export type Era =
  | { kind: 'legacy' }
  | { kind: 'modern'; version: string }
  | { kind: 'refuse'; status: number; code: number; message: string; data?: unknown };

const refuse = (code: number, message: string, data?: unknown): Era => ({ kind: 'refuse', status: 400, code, message, data });
const mismatch = (header: string, body: string) =>
  refuse(RPC_ERRORS.HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${body}`, {
    mismatch: { header, body },
  });

/**
 * The era of one message (a request when `isRequest`, else a notification) and, for a 2026-07-28 one,
 * whether its envelope and headers let it be served; `legacyVersions` are those `initialize` negotiates.
 */
export function classify(
  message: { method: string; params: Record<string, unknown>; isRequest: boolean },
  sent: Headers2026,
  legacyVersions: readonly string[],
): Era {
  const headers = {
    protocolVersion: sent.protocolVersion === undefined ? undefined : stripOws(sent.protocolVersion),
    method: sent.method === undefined ? undefined : stripOws(sent.method),
    name: sent.name === undefined ? undefined : stripOws(sent.name),
  };
  const { method, params, isRequest } = message;
  const meta = isObject(params._meta) ? params._meta : undefined;
  const claim = meta !== undefined && META.protocolVersion in meta;
  const headerIsModern = headers.protocolVersion !== undefined && isModernVersion(headers.protocolVersion);
  const methodName = decodeHeaderValue(headers.method ?? '') ?? headers.method;
  const methodMismatch = headers.method !== undefined && methodName !== method;

  // `initialize` is the 2025 handshake unless a valid 2026 envelope says otherwise (the 2026 revision then
  // answers it as a method it does not have).
  const validModernClaim = claim && envelopeProblems(meta).length === 0 && isModernVersion(String(meta[META.protocolVersion]));
  if (isRequest && method === 'initialize' && !validModernClaim) {
    if (headerIsModern)
      return mismatch(
        headers.protocolVersion as string,
        'an initialize request (the 2025 handshake) was sent with a 2026 MCP-Protocol-Version header',
      );
    return { kind: 'legacy' };
  }

  if (!claim) {
    if (isRequest && headerIsModern) {
      const missing = meta === undefined ? ['_meta'] : [META.protocolVersion];
      return refuse(
        RPC_ERRORS.INVALID_PARAMS,
        `Invalid params: the MCP-Protocol-Version header names protocol revision ${headers.protocolVersion?.slice(0, 32)}, but the request is missing the required per-request envelope key(s): ${missing.join(', ')}`,
        { envelope: { missing } },
      );
    }
    if (!isRequest && headerIsModern) {
      if (methodMismatch) return mismatch(headers.method as string, `the notification body names method ${method}`);
      return { kind: 'modern', version: headers.protocolVersion as string };
    }
    // A 2025 request: its headers are optional, but never contradict the body.
    if (methodMismatch)
      return mismatch(
        headers.method as string,
        `the body names method ${method} but the Mcp-Method header names ${headers.method}`,
      );
    if (isRequest && method === 'tools/call' && headers.name !== undefined) {
      const name = decodeHeaderValue(headers.name);
      if (name !== params.name) return mismatch(headers.name, "the Mcp-Name header does not name the body's params.name");
    }
    if (headers.protocolVersion !== undefined && method !== 'initialize' && !legacyVersions.includes(headers.protocolVersion)) {
      const supported = legacyVersions.join(', ');
      return refuse(
        RPC_ERRORS.SERVER_ERROR,
        `Bad Request: Unsupported protocol version: ${headers.protocolVersion.slice(0, 32)} (supported versions: ${supported})`,
      );
    }
    return { kind: 'legacy' };
  }

  // The envelope is there: a 2026-07-28 request (or a later revision's).
  const envelope = meta as Record<string, unknown>;
  const problems = isRequest
    ? envelopeProblems(envelope)
    : typeof envelope[META.protocolVersion] === 'string'
      ? []
      : [`${META.protocolVersion}: expected a protocol version string`];
  if (problems.length > 0) {
    const [key, problem] = (problems[0] as string).split(/: (.*)/s);
    return refuse(
      RPC_ERRORS.INVALID_PARAMS,
      `Invalid _meta envelope for protocol revision ${MODERN_PROTOCOL_VERSION}: ${problems[0]}`,
      { envelope: { key, problem } },
    );
  }
  const claimed = envelope[META.protocolVersion] as string;
  if (headers.protocolVersion !== undefined && headers.protocolVersion !== claimed)
    return mismatch(
      headers.protocolVersion,
      `the body envelope names protocol version ${claimed.slice(0, 32)} but the MCP-Protocol-Version header names ${headers.protocolVersion.slice(0, 32)}`,
    );
  if (methodMismatch)
    return mismatch(
      headers.method as string,
      `the body names method ${method} but the Mcp-Method header names ${headers.method}`,
    );
  if (!MODERN_VERSIONS.includes(claimed))
    return refuse(RPC_ERRORS.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${claimed.slice(0, 32)}`, {
      supported: [...MODERN_VERSIONS],
      requested: claimed.slice(0, 32),
    });
  if (!isRequest) return { kind: 'modern', version: claimed };
  if (headers.protocolVersion === undefined)
    return mismatch(
      '(missing)',
      `the body envelope names protocol version ${claimed} but the required MCP-Protocol-Version header is absent`,
    );
  if (headers.method === undefined)
    return mismatch('(missing)', `the body names method ${method} but the required Mcp-Method header is absent`);
  if (method === 'tools/call' && typeof params.name === 'string') {
    if (headers.name === undefined)
      return mismatch(
        '(missing)',
        `the body carries params.name="${params.name.slice(0, 64)}" but the required Mcp-Name header is absent`,
      );
    const name = decodeHeaderValue(headers.name);
    if (name === undefined) return mismatch(headers.name, 'the Mcp-Name header carries an invalid Base64 sentinel value');
    if (name !== params.name)
      return mismatch(
        headers.name,
        `the body carries params.name="${params.name.slice(0, 64)}" but the Mcp-Name header names "${name.slice(0, 64)}"`,
      );
  }
  return { kind: 'modern', version: claimed };
}
