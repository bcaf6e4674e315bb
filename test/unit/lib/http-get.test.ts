import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpGet } from '../../../lib/http-get.js';
import { watchTimerLag } from '../../support/timer-lag.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let base = '';
let handler: Handler = (_req, res) => res.end();
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  handler = (_req, res) => res.end();
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const options = { timeoutMs: 2000, maxBytes: 1024 };

describe('httpGet', () => {
  it('sends Accept and Accept-Encoding: gzip, with the caller headers, and unpacks a gzip answer', async () => {
    let seen: IncomingMessage['headers'] = {};
    handler = (req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ ok: 'ünïcode' })));
    };
    const outcome = await httpGet(`${base}/x`, { ...options, headers: { 'User-Agent': 'test-agent' } });
    expect(outcome).toMatchObject({ ok: true, status: 200, text: '{"ok":"ünïcode"}' });
    expect(seen).toMatchObject({ accept: 'application/json', 'accept-encoding': 'gzip', 'user-agent': 'test-agent' });
  });

  it('passes a non-200 status through with its headers and body', async () => {
    handler = (_req, res) => {
      res.writeHead(503, { 'Retry-After': '7' });
      res.end('{"error":"busy"}');
    };
    const outcome = await httpGet(`${base}/x`, options);
    expect(outcome).toMatchObject({ ok: true, status: 503, text: '{"error":"busy"}' });
    expect(outcome.ok && outcome.headers['retry-after']).toBe('7');
  });

  it('answers a status whose body is not wanted at once, with empty text, while the body still streams', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'Content-Length': '100000' });
      res.write('x'.repeat(10));
    };
    const outcome = await httpGet(`${base}/x`, { ...options, readBody: (status) => status === 200 });
    expect(outcome).toMatchObject({ ok: true, status: 429, text: '' });
  });

  it('refuses an answer whose Content-Length exceeds the cap before reading it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '4096' });
      // Never sends the body: only the declared length can refuse it in time.
      res.flushHeaders();
    };
    expect(await httpGet(`${base}/x`, options)).toEqual({ ok: false, reason: 'too-large' });
  });

  it('reads past a Content-Length over the cap when told not to trust it, and refuses by the bytes that came', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '4096' });
      res.end('x'.repeat(4096));
    };
    expect(await httpGet(`${base}/x`, { ...options, refuseByLength: false })).toEqual({ ok: false, reason: 'too-large' });
  });

  it('refuses a streamed answer once its unpacked bytes pass the cap', async () => {
    handler = (_req, res) => {
      // Chunked, no length: 2 KiB of zeros gzip to a few dozen bytes, so only the unpacked count can catch it.
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.write(gzipSync(Buffer.alloc(2048, 0x30)));
    };
    expect(await httpGet(`${base}/x`, options)).toEqual({ ok: false, reason: 'too-large' });
  });

  it('times out and destroys the request when no answer comes in time', async () => {
    let closed = false;
    handler = (req) => {
      req.socket.on('close', () => {
        closed = true;
      });
    };
    const lag = watchTimerLag();
    const started = performance.now();
    expect(await httpGet(`${base}/x`, { ...options, timeoutMs: 100 })).toEqual({ ok: false, reason: 'timeout' });
    // Its own 100 ms bound, not a later one: the time this process was not run is allowed for.
    expect(performance.now() - started).toBeLessThan(1000 + lag.stop().total);
    await expect.poll(() => closed).toBe(true);
  });

  it('times out when the body stalls midway', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":');
    };
    expect(await httpGet(`${base}/x`, { ...options, timeoutMs: 100 })).toEqual({ ok: false, reason: 'timeout' });
  });

  it('fails as network, with a cause, when the connection is reset mid-body', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":', () => res.socket?.resetAndDestroy());
    };
    const outcome = await httpGet(`${base}/x`, options);
    expect(outcome).toMatchObject({ ok: false, reason: 'network' });
    expect(outcome.ok === false && outcome.reason === 'network' && outcome.cause).toBeInstanceOf(Error);
  });

  it('fails as network when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await httpGet(`http://127.0.0.1:${port}/x`, options)).toMatchObject({ ok: false, reason: 'network' });
  });

  it('uses an answer that arrived while the process was frozen past the timeout, and lets a begun one finish', async () => {
    const freeze = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    // Whole before the freeze: read before the overdue timer gives up.
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"whole":true}', () => freeze(400));
    };
    expect(await httpGet(`${base}/x`, { ...options, timeoutMs: 200 })).toMatchObject({ ok: true, text: '{"whole":true}' });
    // Begun before the freeze, ended 50 ms after it: the grace (250 ms) lets it finish.
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"begun":', () => {
        setTimeout(() => res.end('true}'), 450);
        freeze(400);
      });
    };
    expect(await httpGet(`${base}/x`, { ...options, timeoutMs: 200 })).toMatchObject({ ok: true, text: '{"begun":true}' });
  });
});
