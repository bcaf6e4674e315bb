/**
 * Where a webhook may be sent. A job's webhook URL is the client's, but the request is the service's own,
 * made from inside the deployment: a URL naming (or resolving to) an address inside it would let a client
 * reach what only the service can reach. So every address is put in a class, and:
 * - link-local and metadata addresses (169.254.0.0/16, fe80::/10, the clouds' instance metadata services
 *   and their names) are refused in every mode, at submit (400) and before each try;
 * - deployed, loopback, private, shared, reserved and unspecified addresses are refused too, before each
 *   try, with the name resolved then (so a name that resolves elsewhere later is caught), and the request
 *   is sent to the very address that was checked. Under `npm start` (JOBS_WEBHOOK_PRIVATE=allow) they are
 *   allowed, so a receiver on the same machine can be tried.
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'reserved';

/** Host names of instance metadata services (Google's and the generic ones), refused by name. */
export const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Instance metadata addresses: AWS (IPv4 and IPv6), ECS task metadata, Alibaba, Oracle's. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200', '192.0.0.192']);

function list(entries: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const blocks = new BlockList();
  for (const [network, prefix, family] of entries) blocks.addSubnet(network, prefix, family);
  return blocks;
}

const LOOPBACK = list([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const LINK_LOCAL = list([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const PRIVATE = list([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  // Shared address space (carrier-grade NAT), inside some providers' networks.
  ['100.64.0.0', 10, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
]);
const RESERVED = list([
  ['0.0.0.0', 8, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const isMapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (isMapped || isNat64) return v4(groups[6] as number, groups[7] as number);
  if (groups[0] === 0x2002) return v4(groups[1] as number, groups[2] as number);
  return undefined;
}

/** An IPv6 address as its eight 16-bit groups; undefined when it is not one. */
function expandIpv6(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<number>(zeros).fill(0), ...right];
}

/** The class of an IP address (v4 or v6, an IPv6 that carries an IPv4 classed as that IPv4). */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4 && v4 !== address) return classifyAddress(v4);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const bare = address.replace(/%.*$/, '').toLowerCase();
  if (
    METADATA_ADDRESSES.has(bare) ||
    (type === 'ipv6' && expandIpv6(bare)?.join(':') === expandIpv6('fd00:ec2::254')?.join(':'))
  ) {
    return 'metadata';
  }
  if (LOOPBACK.check(bare, type)) return 'loopback';
  if (LINK_LOCAL.check(bare, type)) return 'link-local';
  if (PRIVATE.check(bare, type)) return 'private';
  if (RESERVED.check(bare, type)) return 'reserved';
  return 'public';
}

/** Whether an address of this class may be posted to: link-local and metadata never; the others inside only when allowed. */
export function mayPost(kind: AddressClass, allowPrivate: boolean): boolean {
  if (kind === 'link-local' || kind === 'metadata') return false;
  return kind === 'public' || allowPrivate;
}

/** A URL's host as an address or a name: brackets off an IPv6 literal, a trailing dot off a name, lower case. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Why a class of address is refused, for a 400 or a webhook's `last_error`. */
export function refusalOf(kind: AddressClass): string {
  return kind === 'metadata'
    ? 'an instance metadata address, which the service never posts to'
    : `a ${kind} address, which the service never posts to${kind === 'link-local' ? '' : ' where deployed'}`;
}
