/**
 * One try of a job's webhook: the URL's name resolved, every address it resolves to checked
 * (address.ts), then one POST of the signed body to the address that was checked (the name is still sent
 * as the Host and, over HTTPS, for the certificate), so that a name cannot resolve to one address for the
 * check and another for the request. Redirects are not followed. The outcome says whether the receiver
 * took it (2xx), whether to try again later (no answer, an error, another status), or never (the address
 * is refused).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_SIGNATURE_HEADER } from '../../contract/jobs.js';
import { type AddressClass, classifyAddress, hostOf, METADATA_NAMES, mayPost, refusalOf } from './address.js';
import { webhookSignature } from './sign.js';

/** Resolves a name to its addresses (dns.lookup, all of them, as the system resolver gives them). */
export type Resolver = (name: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (name) => dnsLookup(name, { all: true, verbatim: true });

export interface DeliveryOptions {
  /** Post to loopback, private and reserved addresses too (`npm start`); link-local and metadata never. */
  allowPrivate: boolean;
  resolve: Resolver;
  timeoutMs: number;
  /** Where a checked address is dialled (the tests send a public address to a receiver on loopback); default: itself. */
  dial?: (address: string, port: number) => { address: string; port: number };
  userAgent: string;
}

export type DeliveryOutcome = { delivered: true } | { refused: string } | { failed: string };

/** Why this URL's host, by its literal address or its name, is refused; undefined when it may be tried. */
export function hostRefusal(url: URL, allowPrivate: boolean): string | undefined {
  const host = hostOf(url);
  if (METADATA_NAMES.has(host)) return `${host} names an instance metadata service, which the service never posts to`;
  if (isIP(host) === 0) return undefined;
  const kind = classifyAddress(host);
  return mayPost(kind, allowPrivate) ? undefined : `${host} is ${refusalOf(kind)}`;
}

/** The addresses a host resolves to, each checked; the first allowed one, or why none may be posted to. */
async function checkedAddress(
  url: URL,
  options: DeliveryOptions,
): Promise<{ address: string; family: number } | { refused: string }> {
  const host = hostOf(url);
  const refused = hostRefusal(url, options.allowPrivate);
  if (refused) return { refused };
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await options.resolve(host);
  // Every address the name gives is checked: a name that also resolves inside is refused, whichever is dialled.
  for (const { address } of addresses) {
    const kind: AddressClass = classifyAddress(address);
    if (!mayPost(kind, options.allowPrivate)) return { refused: `${host} resolves to ${address}, ${refusalOf(kind)}` };
  }
  const first = addresses[0];
  if (!first) throw new Error(`${host} resolves to no address`);
  return first;
}

/** One try: POST `body` to the webhook's URL, signed with its secret. */
export async function deliverWebhook(
  webhook: { url: string; secret: string },
  body: string,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const url = new URL(webhook.url);
  let target: Awaited<ReturnType<typeof checkedAddress>>;
  try {
    target = await checkedAddress(url, options);
  } catch (error) {
    return { failed: `the name ${hostOf(url)} could not be resolved (${(error as Error).message})` };
  }
  if ('refused' in target) return target;
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const dialled = options.dial?.(target.address, port) ?? { address: target.address, port };
  return new Promise<DeliveryOutcome>((resolve) => {
    const request = (secure ? https : http).request(
      {
        host: dialled.address,
        port: dialled.port,
        servername: isIP(hostOf(url)) ? undefined : hostOf(url),
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers: {
          Host: url.host,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(body)),
          'User-Agent': options.userAgent,
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(webhook.secret, body),
        },
        timeout: options.timeoutMs,
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? { delivered: true } : { failed: `the receiver answered HTTP ${status}` });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => resolve({ failed: `the request failed: ${error.message}` }));
    request.end(body);
  });
}
