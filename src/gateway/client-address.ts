/**
 * Who the client is, behind reverse proxies (issue 15). The per-client rate limit and the request log key on this
 * address. A forwarding header is believed only as far as the proxies the operator trusts (GATEWAY_TRUSTED_PROXIES:
 * addresses or CIDR ranges): the hops are read right to left (the right-most was added by the proxy nearest to us),
 * trusted proxies are skipped, and the first hop that is not a trusted proxy is the client. Anything further left
 * was written by the client itself and is ignored. From an untrusted peer, the headers are ignored entirely.
 *
 * One header is read, never both: proxies append to the header they maintain and pass the other one through as the
 * client sent it, so reading both would let a client choose its own address. X-Forwarded-For is the default (nginx,
 * HAProxy, Caddy, cloud load balancers); GATEWAY_CLIENT_ADDRESS_HEADER=forwarded reads RFC 7239 `Forwarded` instead.
 */
import { BlockList, isIP } from 'node:net';

export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

export interface ClientAddressSettings {
  trustedProxies: BlockList;
  header: ForwardedHeader;
}

/** "10.0.0.0/8, 192.0.2.7 2001:db8::/32" → a BlockList; throws with the first bad entry. */
export function parseTrustedProxies(spec: string): BlockList {
  const list = new BlockList();
  for (const entry of spec.split(/[\s,]+/).filter(Boolean)) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix!) || bits > maxBits))) {
      throw new Error(`"${entry}" is not an IP address or a CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, fd00::/8)`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, bits, type);
  }
  return list;
}

/** An IPv4-mapped IPv6 address (::ffff:192.0.2.1, how a dual-stack socket reports IPv4 peers) as plain IPv4. */
export function normaliseAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The address in one RFC 7239 node ("192.0.2.1", "\"[2001:db8::1]:4711\"", "unknown", "_hidden"), or undefined. */
function forwardedNode(value: string): string | undefined {
  let node = value.trim();
  if (node.startsWith('"') && node.endsWith('"') && node.length >= 2) node = node.slice(1, -1);
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (v6) return isIP(v6[1]!) === 6 ? v6[1] : undefined;
  const v4 = /^(\d+\.\d+\.\d+\.\d+)(?::\d+)?$/.exec(node);
  if (v4) return isIP(v4[1]!) === 4 ? v4[1] : undefined;
  return undefined;
}

/** The hops a header lists, left (farthest) to right (nearest); an entry that is not an address is undefined. */
export function forwardedHops(header: ForwardedHeader, value: string | string[] | undefined): (string | undefined)[] {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  if (header === 'x-forwarded-for') {
    return text.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
      const address = forwardedNode(s) ?? s;
      return isIP(address) ? normaliseAddress(address) : undefined;
    });
  }
  // Forwarded: elements separated by commas, pairs by semicolons; only `for=` matters here. Quoted strings in this
  // header never contain commas or semicolons in a `for` value, so a plain split is enough.
  return text.split(',').map((element) => {
    const pair = element.split(';').map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('for='));
    const address = pair ? forwardedNode(pair.slice(4)) : undefined;
    return address ? normaliseAddress(address) : undefined;
  });
}

/** Whether the connection comes from a trusted proxy (whose forwarding headers, and request id, are believed). */
export function isTrustedPeer(peer: string | undefined, settings: ClientAddressSettings | undefined): boolean {
  return settings !== undefined && isTrusted(settings.trustedProxies, normaliseAddress(peer ?? 'unknown'));
}

/**
 * The client's address: the peer, unless the peer is a trusted proxy; then the right-most hop that is not a trusted
 * proxy. A hop that is not an address ("unknown", an obfuscated name, garbage) ends the walk at the last trusted
 * hop: the client cannot pick its own identity by writing nonsense.
 */
export function clientAddress(peer: string | undefined, headers: Record<string, string | string[] | undefined>, settings: ClientAddressSettings | undefined): string {
  const direct = normaliseAddress(peer ?? 'unknown');
  if (!settings || !isTrustedPeer(direct, settings)) return direct;
  const hops = forwardedHops(settings.header, headers[settings.header]);
  let nearest = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop === undefined) return nearest;
    if (!isTrusted(settings.trustedProxies, hop)) return hop;
    nearest = hop;
  }
  return nearest;
}
