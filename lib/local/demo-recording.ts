/**
 * A demo answer says what it replays. The demo upstream (replay-upstream.ts) answers every query from a
 * few recordings, most of them for other terms ("coffee"), and has no recording of a later page: without
 * a word, a newcomer takes the answer for a bug. So, in the demo only, the local server (server.ts) adds
 * to every answer built from a recording the header `X-Demo-Recording` naming the query each recording
 * answers, and says the same at the end of the envelope's `message` (over MCP, at the head of the tool
 * result's text and in its `_meta`); of a page it holds no recording of, it says that too. The handlers know nothing of it: they run as in Lambda.
 *
 * How the local server learns which recordings its request was answered from: both run in this process
 * (`npm start`). The request's handler runs inside an AsyncLocalStorage context holding the request's
 * list; when a client request to the demo upstream starts within it (node:http's diagnostics channel),
 * its socket's local port is noted with the list, and the demo upstream, seeing the same port as the
 * remote port of the call it answers, adds the recording to that list.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';

export const DEMO_RECORDING_HEADER = 'X-Demo-Recording';

/** One upstream answer of the demo: the query its recording answers, and whether it stands in for a later page. */
export interface Replayed {
  recording: string;
  /** The demo holds no recording of the page asked: the answer is its recorded page again. */
  unrecordedPage: boolean;
}

const current = new AsyncLocalStorage<Replayed[]>();
/** The demo upstreams of this process, by `host:port` as a client's Host header names them. */
const replayHosts = new Set<string>();
/** What each call to a demo upstream is answering, by `host:port|client port`. */
const calls = new Map<string, Replayed[]>();

const callKey = (host: string, clientPort: number | undefined) => `${host}|${clientPort}`;

let following = false;
function followCalls(): void {
  if (following) return;
  following = true;
  // Published when a request is sent on its socket, within the async context of the code that made it.
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    const host = String(request.getHeader('host') ?? '');
    const socket = request.socket;
    if (!replayHosts.has(host) || !socket) return;
    const list = current.getStore();
    const note = () => {
      if (list) calls.set(callKey(host, socket.localPort), list);
      else calls.delete(callKey(host, socket.localPort));
    };
    if (socket.connecting) socket.once('connect', note);
    else note();
  });
}

/** Called by a demo upstream when it starts listening at `host:port`. */
export function replayStarted(host: string): void {
  followCalls();
  replayHosts.add(host);
}

export function replayClosed(host: string): void {
  replayHosts.delete(host);
}

/** Starts a demo upstream's server on a free loopback port, known as a replay until it is closed. */
export async function listenAsReplay(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  replayStarted(host);
  return {
    url: `http://${host}`,
    close: () =>
      new Promise((resolve) => {
        replayClosed(host);
        server.close(() => resolve());
      }),
  };
}

/** Called by a demo upstream for each answer it gives from a recording. */
export function noteReplayed(req: IncomingMessage, replayed: Replayed): void {
  calls.get(callKey(req.headers.host ?? '', req.socket.remotePort))?.push(replayed);
}

/** Whether the service's upstream is a demo upstream of this process: never with a real key or in Lambda. */
function demoActive(): boolean {
  const base = process.env.SERPAPI_BASE_URL;
  if (!base || replayHosts.size === 0) return false;
  try {
    return replayHosts.has(new URL(base).host);
  } catch {
    return false;
  }
}

/** `"a"`, `"a" and "b"`, `"a", "b" and "c"`. */
function quotedList(items: readonly string[]): string {
  const quoted = items.map((item) => `"${item}"`);
  return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** The words added to the envelope's message. */
export function demoNote(replayed: readonly Replayed[]): string {
  const recordings = [...new Set(replayed.map((item) => item.recording))];
  const words = [`demo: recorded answer${recordings.length === 1 ? '' : 's'} for ${quotedList(recordings)}`];
  if (replayed.some((item) => item.unrecordedPage)) {
    words.push('the demo holds no recording of this page, so it repeats its recorded first page (the real index may have more)');
  }
  return `(${words.join('; ')})`;
}

/**
 * An MCP tool result (POST /mcp, `tools/call`) says it too, where an agent reads: the note leads its text,
 * and `_meta.demo_recordings` names the recordings for clients that branch on it.
 */
function markToolResult(message: Record<string, unknown>, note: string, replayed: readonly Replayed[]): boolean {
  const result = message.result as { content?: unknown; _meta?: unknown } | undefined;
  if (message.jsonrpc !== '2.0' || typeof result !== 'object' || result === null || !Array.isArray(result.content)) return false;
  const first = result.content.find((part: { type?: unknown }) => part?.type === 'text') as { text?: unknown } | undefined;
  if (first && typeof first.text === 'string') first.text = `${note}\n${first.text}`;
  if (replayed.length > 0) {
    const meta = typeof result._meta === 'object' && result._meta !== null ? result._meta : {};
    result._meta = { ...meta, demo_recordings: [...new Set(replayed.map((item) => item.recording))] };
  }
  return true;
}

/**
 * In the demo the budget counts replays: every search the demo upstream answered is counted as one paid
 * search would be, so that the budget behaves as deployed, but none reached SerpApi or was paid for. The
 * usage answer, which replays nothing itself, says so.
 */
export const DEMO_USAGE_NOTE =
  '(demo: the searches counted are replays of recorded answers by the demo upstream; none reached SerpApi or was paid for)';

/** The answer with the note added to its message (or, over MCP, leading its text); `header` beside it when given. */
function withNote(
  result: APIGatewayProxyResult,
  note: string,
  header: string | undefined,
  replayed: readonly Replayed[],
): APIGatewayProxyResult {
  let body = result.body;
  if (!result.isBase64Encoded) {
    try {
      const envelope = JSON.parse(body) as Record<string, unknown>;
      if (typeof envelope.success === 'boolean' && typeof envelope.message === 'string') {
        envelope.message = `${envelope.message} ${note}`;
        body = JSON.stringify(envelope);
      } else if (markToolResult(envelope, note, replayed)) {
        body = JSON.stringify(envelope);
      }
    } catch {
      // Not JSON: the header alone says it.
    }
  }
  return header === undefined
    ? { ...result, body }
    : { ...result, body, headers: { ...result.headers, [DEMO_RECORDING_HEADER]: header } };
}

/** The answer with the header and the message's note, when it was built from recordings. */
function marked(result: APIGatewayProxyResult, replayed: readonly Replayed[]): APIGatewayProxyResult {
  if (replayed.length === 0) return result;
  // A header value is visible ASCII: any other character of a recorded query is shown as '?'.
  const header = [...new Set(replayed.map((item) => item.recording))].join('; ').replace(/[^\x20-\x7e]/g, '?');
  return withNote(result, demoNote(replayed), header, replayed);
}

/**
 * Runs the local server's call of a handler; in the demo, marks its answer with the recordings it was
 * built from, and an answer of the budget's counts (`counts`: /v1/usage, or its MCP tool) with
 * DEMO_USAGE_NOTE. Elsewhere it only calls the handler.
 */
export async function answerMarked(
  answer: () => Promise<APIGatewayProxyResult>,
  { counts = false }: { counts?: boolean } = {},
): Promise<APIGatewayProxyResult> {
  if (!demoActive()) return answer();
  const replayed: Replayed[] = [];
  try {
    const result = marked(await current.run(replayed, answer), replayed);
    return counts && result.statusCode === 200 ? withNote(result, DEMO_USAGE_NOTE, undefined, []) : result;
  } finally {
    for (const [key, list] of calls) if (list === replayed) calls.delete(key);
  }
}
