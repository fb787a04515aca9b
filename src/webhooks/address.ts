import { isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** The IPv4 address in bits `from`..`from + 32` of an IPv6 address, its bits inverted for Teredo's client. */
function embeddedIPv4(address: ipaddr.IPv6, from: number, inverted = false): ipaddr.IPv4 {
  const bytes = address.toByteArray().slice(from / 8, from / 8 + 4);
  return new ipaddr.IPv4(inverted ? bytes.map((byte) => byte ^ 0xff) : bytes);
}

/** The IPv4 addresses an IPv6 address leads to, by its ipaddr.js range; none when it embeds none. */
function embeddedIPv4s(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  switch (range) {
    case 'rfc6145': // ::ffff:0:a.b.c.d, IPv4-translated
      return [embeddedIPv4(address, 96)];
    case 'rfc6052': // 64:ff9b::a.b.c.d, NAT64 (the /96 well-known prefix; the local-use /48 is not global)
      return address.match(ipaddr.IPv6.parse('64:ff9b::'), 96) ? [embeddedIPv4(address, 96)] : [];
    case '6to4': // 2002:AABB:CCDD::
      return [embeddedIPv4(address, 16)];
    case 'teredo': // 2001:0:server:flags:port:~client
      return [embeddedIPv4(address, 32), embeddedIPv4(address, 96, true)];
    default:
      return [];
  }
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse('2000::');

/**
 * Why a webhook may not connect to `address` (docs/behaviour.md §11), or null when
 * it is a global unicast address. The reason is the ipaddr.js range: loopback,
 * private, linkLocal, carrierGradeNat, reserved (documentation, benchmarking, 240/4…),
 * uniqueLocal, multicast, unspecified, broadcast, ipv4Mapped, and the other special
 * ranges; an IPv6 address outside 2000::/3 is `reserved`. The NAT64, 6to4,
 * IPv4-translated and Teredo addresses lead to the IPv4 address they embed and are
 * judged by it: `6to4 of 127.0.0.1, loopback`.
 */
export function blockedRange(address: string): string | null {
  if (!isIP(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv4') return range === 'unicast' ? null : range;
  const v6 = parsed as ipaddr.IPv6;
  if (range === 'unicast') return v6.match(GLOBAL_UNICAST_V6, 3) ? null : 'reserved';
  const embedded = embeddedIPv4s(v6, range);
  if (embedded.length === 0) return range;
  const blocked = embedded.find((v4) => v4.range() !== 'unicast');
  return blocked ? `${range} of ${blocked.toString()}, ${blocked.range()}` : null;
}

/**
 * The one answer to a URL whose host webhooks may not reach, whatever the reason: it does not resolve, or it
 * resolves to a loopback, private or other non-public address (issue 18.9). Saying which ("resolves to 127.0.0.1
 * (loopback)", "does not resolve") would let a tenant map internal host names to internal addresses.
 */
export const REFUSED_ADDRESS_MESSAGE = 'must be an http(s) URL whose host resolves to public addresses only (WEBHOOK_BLOCK_PRIVATE is on)';

/** A connection refused by publicOnlyLookup: the host resolved to an address webhooks may not reach. */
export class RefusedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_REFUSED_ADDRESS';
  constructor(hostname: string, address: string, range: string) {
    super(`${hostname} resolves to ${address} (${range}), which webhooks may not reach (WEBHOOK_BLOCK_PRIVATE is on)`);
  }
}

/** The host of a URL as DNS and isIP() expect it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Every address `host` resolves to (itself when it is an IP literal). */
export async function resolveHost(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  );
  return addresses.map((entry) => entry.address);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses blocked addresses at connection time,
 * so a name that resolves to another address than when the webhook was created
 * (DNS rebinding) is refused too: the checked answer is the one connected to.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    for (const entry of addresses) {
      const range = blockedRange(entry.address);
      if (range) return callback(new RefusedAddressError(hostname, entry.address, range), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    return callback(null, first.address, first.family);
  });
}
