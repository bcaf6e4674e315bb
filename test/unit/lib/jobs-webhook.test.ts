/**
 * A job's webhook (lib/jobs/webhook/): the signature as GitHub documents its own, the classes of address
 * and which may be posted to in which mode, and one try against a receiver on loopback, with the host's
 * name resolved by the test (a public address dialled to the receiver) so that what deployed mode does
 * before each try can be seen: every address of the name checked, the checked one dialled, a name that
 * resolves inside the network later refused.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddressClass, classifyAddress, hostOf, mayPost } from '../../../lib/jobs/webhook/address.js';
import { type DeliveryOptions, deliverWebhook, hostRefusal } from '../../../lib/jobs/webhook/deliver.js';
import { verifyWebhookSignature, webhookSignature } from '../../../lib/jobs/webhook/sign.js';

describe('the signature', () => {
  it("is sha256= and the hex HMAC-SHA256 of the raw body, as GitHub's documented example gives it", () => {
    // docs.github.com, "Validating webhook deliveries": this secret and payload, this signature.
    expect(webhookSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('verifies only the same bytes under the same secret', () => {
    const signature = webhookSignature('secret-one-0123456', '{"a":1}');
    expect(verifyWebhookSignature('secret-one-0123456', '{"a":1}', signature)).toBe(true);
    expect(verifyWebhookSignature('secret-one-0123456', '{"a": 1}', signature)).toBe(false);
    expect(verifyWebhookSignature('secret-two-0123456', '{"a":1}', signature)).toBe(false);
    expect(verifyWebhookSignature('secret-one-0123456', '{"a":1}', signature.slice(0, -1))).toBe(false);
  });
});

describe('the classes of address', () => {
  const cases: Record<AddressClass, string[]> = {
    public: [
      '93.184.215.14',
      '8.8.8.8',
      '172.15.255.255',
      '172.32.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '169.253.255.255',
      '169.255.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ],
    loopback: ['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1', '64:ff9b::7f00:1'],
    private: [
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      'fc00::1',
      'fd12:3456::1',
      '2002:c0a8:0101::1',
    ],
    'link-local': ['169.254.1.1', '169.254.0.0', 'fe80::1', 'febf::1', '::ffff:169.254.3.4'],
    metadata: [
      '169.254.169.254',
      'fd00:ec2::254',
      '169.254.170.2',
      '100.100.100.200',
      '192.0.0.192',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
    ],
    reserved: [
      '0.0.0.0',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '2001:db8::1',
      'ff02::1',
    ],
  };
  for (const [kind, addresses] of Object.entries(cases)) {
    it(`classes ${addresses.join(', ')} as ${kind}`, () => {
      for (const address of addresses) expect(classifyAddress(address), address).toBe(kind);
    });
  }

  it('never posts to link-local or metadata addresses; to loopback, private and reserved ones only when allowed', () => {
    for (const kind of ['link-local', 'metadata'] as const)
      for (const allow of [true, false]) expect(mayPost(kind, allow)).toBe(false);
    for (const kind of ['loopback', 'private', 'reserved'] as const) {
      expect(mayPost(kind, true)).toBe(true);
      expect(mayPost(kind, false)).toBe(false);
    }
    expect(mayPost('public', false)).toBe(true);
  });

  it('refuses a URL by its literal address or a metadata name, whatever their case and form', () => {
    const refused = (url: string, allow: boolean) => hostRefusal(new URL(url), allow);
    expect(refused('http://METADATA.GOOGLE.INTERNAL./x', true)).toMatch(/instance metadata/);
    expect(refused('http://169.254.169.254/', true)).toMatch(/metadata/);
    expect(refused('http://[fe80::1]:8080/', true)).toMatch(/link-local/);
    expect(refused('http://0x7f.1/', true)).toBeUndefined();
    expect(refused('http://0x7f.1/', false)).toMatch(/^127\.0\.0\.1 is a loopback address/);
    expect(refused('http://10.1.2.3/', false)).toMatch(/private/);
    expect(refused('https://hooks.example.com/x', false)).toBeUndefined();
    expect(hostOf(new URL('http://[::1]:9/'))).toBe('::1');
  });
});

describe('one try', () => {
  let received: { headers: IncomingHttpHeaders; body: string; path: string }[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url ?? '' });
      res.writeHead(status, status === 302 ? { Location: 'http://127.0.0.1/elsewhere' } : {});
      res.end();
    });
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const PUBLIC = '93.184.215.14';
  /** Deployed mode, the name resolving as `answers` say, one call after the other, a public address dialled to the receiver. */
  function deployed(answers: string[][]): DeliveryOptions & { lookups: string[] } {
    const lookups: string[] = [];
    let call = 0;
    return {
      lookups,
      allowPrivate: false,
      timeoutMs: 2_000,
      userAgent: 'test',
      resolve: async (name) => {
        lookups.push(name);
        const found = answers[Math.min(call++, answers.length - 1)] ?? [];
        return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
      dial: (address) => {
        expect(address).toBe(PUBLIC);
        return { address: '127.0.0.1', port };
      },
    };
  }
  const hook = { url: 'https://hooks.example.com/jobs?x=1', secret: 'a-secret-of-sixteen' };
  const body = '{"job_id":"job_x","status":"done"}';

  it('resolves the name, checks the address, and posts the signed body to that very address with the name as Host', async () => {
    received = [];
    status = 200;
    // Plain HTTP to the receiver: the URL's scheme is https only to show the Host and path it keeps.
    const options = deployed([[PUBLIC]]);
    const outcome = await deliverWebhook({ ...hook, url: 'http://hooks.example.com/jobs?x=1' }, body, options);
    expect(outcome).toEqual({ delivered: true });
    expect(options.lookups).toEqual(['hooks.example.com']);
    expect(received).toHaveLength(1);
    expect(received[0]?.headers.host).toBe('hooks.example.com');
    expect(received[0]?.path).toBe('/jobs?x=1');
    expect(received[0]?.body).toBe(body);
    expect(received[0]?.headers['x-signature-256']).toBe(webhookSignature(hook.secret, body));
  });

  it('resolves again before each try: a name that later resolves to loopback is refused, nothing is sent', async () => {
    received = [];
    const options = deployed([[PUBLIC], ['127.0.0.1']]);
    const url = 'http://hooks.example.com/jobs';
    expect(await deliverWebhook({ ...hook, url }, body, options)).toEqual({ delivered: true });
    const second = await deliverWebhook({ ...hook, url }, body, options);
    expect(second).toEqual({
      refused: 'hooks.example.com resolves to 127.0.0.1, a loopback address, which the service never posts to where deployed',
    });
    expect(options.lookups).toHaveLength(2);
    expect(received).toHaveLength(1);
  });

  it('refuses a name any of whose addresses is inside, link-local or metadata, whichever would be dialled', async () => {
    for (const inside of ['10.0.0.7', '169.254.169.254', 'fe80::1', '::1']) {
      const outcome = await deliverWebhook({ ...hook, url: 'http://hooks.example.com/' }, body, deployed([[PUBLIC, inside]]));
      expect('refused' in outcome, inside).toBe(true);
    }
    // Link-local and metadata are refused under npm start too; a private address is allowed there.
    const local = { ...deployed([[PUBLIC, '169.254.169.254']]), allowPrivate: true };
    expect(await deliverWebhook({ ...hook, url: 'http://hooks.example.com/' }, body, local)).toMatchObject({
      refused: expect.stringMatching(/metadata/),
    });
  });

  it('counts a redirect, another status, no answer or a name that does not resolve as a failed try, to be tried again', async () => {
    status = 302;
    expect(await deliverWebhook({ ...hook, url: 'http://hooks.example.com/' }, body, deployed([[PUBLIC]]))).toEqual({
      failed: 'the receiver answered HTTP 302',
    });
    status = 500;
    expect(await deliverWebhook({ ...hook, url: 'http://hooks.example.com/' }, body, deployed([[PUBLIC]]))).toEqual({
      failed: 'the receiver answered HTTP 500',
    });
    const nowhere = {
      ...deployed([]),
      resolve: async () => Promise.reject(new Error('getaddrinfo ENOTFOUND hooks.example.com')),
    };
    expect(await deliverWebhook({ ...hook, url: 'http://hooks.example.com/' }, body, nowhere)).toEqual({
      failed: 'the name hooks.example.com could not be resolved (getaddrinfo ENOTFOUND hooks.example.com)',
    });
    status = 200;
  });
});
