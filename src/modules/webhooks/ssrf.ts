// Where webhooks may not go (docs/decisions.md §7): a hook URL is checked when it is subscribed and again at
// every delivery, and the delivery connects to the very addresses that were checked (the lookup below
// is the socket's own), so DNS answering differently between check and connect (rebinding) gains
// nothing. Numeric host forms (`2130706433`, `0x7f.1`, `0177.0.0.1`) need no rule of their own: the
// WHATWG URL parser turns them into the dotted address they mean before anything here sees them.
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Two lists: Node matches an IPv4 address against IPv6 rules through its mapped form, so one list
// holding ::ffff:0:0/96 would refuse every IPv4 address.
const refusedV4 = new BlockList();
const refusedV6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refusedV4.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 96], // unspecified, loopback (::1) and IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped: an IPv4 address in IPv6 clothing, however written
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 2765): the same, one group further in
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses through a translator
  ['64:ff9b:1::', 48], // local NAT64
  ['100::', 64], // discard
  // IETF protocol assignments, refused whole like 192.0.0.0/24: Teredo (2001::/32, which tunnels to
  // an IPv4 address carried inside), benchmarking, ORCHID. Not decoded: nothing a webhook needs is there.
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address; refused whole rather than decoded
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // segment routing (SRv6) identifiers, never global
  ['fc00::', 7], // unique local, cloud metadata (fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  refusedV6.addSubnet(net, bits, 'ipv6');
}

/** Whether a literal IP address is one a webhook may not reach. Anything not an address is refused. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedV4.check(address, 'ipv4');
  if (family === 6) return refusedV6.check(address, 'ipv6');
  return true;
}

export class HookUrlError extends Error {}

/** What a refusal of an internal address ends with: the switch for a receiver on a trusted network. */
const ALLOW_PRIVATE_HINT =
  'webhooks may not reach private networks; on a trusted network, start the server with CAIRN_WEBHOOK_ALLOW_PRIVATE=true to allow such targets';

/** The host of a hook URL as an address or a name (`[::1]` loses its brackets). */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Parses a hook URL: absolute http(s), nothing else. */
export function parseHookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HookUrlError('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HookUrlError('must be an absolute http or https URL');
  }
  return url;
}

/** The addresses a name resolves to, every one of them allowed, or a HookUrlError saying why not. */
async function resolveAllowed(host: string): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new HookUrlError(`the host ${host} cannot be resolved`);
    }
  }
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  if (bad) {
    throw new HookUrlError(
      `${host} resolves to ${bad.address}, a loopback, private, link-local or otherwise internal address: ${ALLOW_PRIVATE_HINT}`,
    );
  }
  return addresses;
}

/** Checks a hook URL for subscribing: its form always, its addresses unless private ones are allowed. */
export async function checkHookUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = parseHookUrl(raw);
  if (!allowPrivate) await resolveAllowed(hostOf(url));
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the delivery socket (net.connect's option): resolves, refuses when any address is
 * internal, and hands the socket the checked addresses. A literal address in the URL never reaches
 * a lookup, so deliveries check it themselves (checkLiteral).
 */
export function guardedLookup(host: string, options: { all?: boolean }, callback: LookupCallback): void {
  resolveAllowed(host).then(
    (addresses) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    },
    (error: Error) => callback(Object.assign(error, { code: 'EREFUSED' }), '', 0),
  );
}

/** A delivery's check of a URL whose host is a literal address (no lookup will run for it). */
export function checkLiteral(url: URL): void {
  const host = hostOf(url);
  if (isIP(host) && isRefusedAddress(host)) {
    throw new HookUrlError(
      `${host} is a loopback, private, link-local or otherwise internal address: ${ALLOW_PRIVATE_HINT}`,
    );
  }
}
