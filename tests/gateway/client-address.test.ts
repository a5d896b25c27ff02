/** Behind a proxy (issue 15): whose address the gateway believes, and spoofed headers from untrusted peers. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREFLIGHT_PATH, SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { clientAddress, forwardedHops, parseTrustedProxies, type ClientAddressSettings } from '../../src/gateway/client-address.ts';
import { ConfigError, gatewaySettings } from '../../src/gateway/config.ts';
import { call, startGateway } from './helpers.ts';

const xff = (spec: string): ClientAddressSettings => ({ trustedProxies: parseTrustedProxies(spec), header: 'x-forwarded-for' });
const fwd = (spec: string): ClientAddressSettings => ({ trustedProxies: parseTrustedProxies(spec), header: 'forwarded' });

describe('parseTrustedProxies', () => {
  it('takes addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else by name', () => {
    const list = parseTrustedProxies('10.0.0.0/8, 192.0.2.7 fd00::/8,::1');
    expect(['10.1.2.3', '192.0.2.7'].map((a) => list.check(a, 'ipv4'))).toEqual([true, true]);
    expect(['11.0.0.1', '192.0.2.8'].map((a) => list.check(a, 'ipv4'))).toEqual([false, false]);
    expect(['fd12::1', '::1', '2001:db8::1'].map((a) => list.check(a, 'ipv6'))).toEqual([true, true, false]);
    for (const bad of ['10.0.0.0/33', 'proxy.local', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x', '300.1.1.1']) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(/is not an IP address or a CIDR range/);
    }
  });

  it('GATEWAY_TRUSTED_PROXIES and GATEWAY_CLIENT_ADDRESS_HEADER are checked at start', () => {
    expect(gatewaySettings({}).clientAddress).toBeUndefined();
    expect(gatewaySettings({ GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8', GATEWAY_CLIENT_ADDRESS_HEADER: 'Forwarded' }).clientAddress?.header).toBe('forwarded');
    expect(() => gatewaySettings({ GATEWAY_TRUSTED_PROXIES: 'lb.internal' })).toThrow(ConfigError);
    expect(() => gatewaySettings({ GATEWAY_TRUSTED_PROXIES: '10.0.0.1', GATEWAY_CLIENT_ADDRESS_HEADER: 'x-real-ip' })).toThrow(/x-forwarded-for or forwarded/);
  });
});

describe('clientAddress', () => {
  it('an untrusted peer is the client, whatever headers it sends', () => {
    const headers = { 'x-forwarded-for': '1.2.3.4', forwarded: 'for=1.2.3.4' };
    expect(clientAddress('203.0.113.5', headers, undefined)).toBe('203.0.113.5');
    expect(clientAddress('203.0.113.5', headers, xff('10.0.0.0/8'))).toBe('203.0.113.5');
    expect(clientAddress('203.0.113.5', headers, fwd('10.0.0.0/8'))).toBe('203.0.113.5');
  });

  it('behind trusted proxies: the right-most hop that is not a trusted proxy', () => {
    const s = xff('10.0.0.0/8');
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '198.51.100.9' }, s)).toBe('198.51.100.9');
    // The client wrote "1.1.1.1" itself; the proxies appended what they saw.
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '1.1.1.1, 198.51.100.9, 10.0.0.7' }, s)).toBe('198.51.100.9');
    expect(clientAddress('::ffff:10.0.0.2', { 'x-forwarded-for': '198.51.100.9' }, s)).toBe('198.51.100.9');
    // Repeated header lines count as one list, in order.
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': ['1.1.1.1', '198.51.100.9'] }, s)).toBe('198.51.100.9');
    // Only trusted hops: the farthest of them; no header: the peer.
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '10.9.9.9, 10.0.0.7' }, s)).toBe('10.9.9.9');
    expect(clientAddress('10.0.0.2', {}, s)).toBe('10.0.0.2');
    // Garbage in the nearest untrusted position: the walk stops at the last trusted hop, never at the garbage.
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '1.1.1.1, not-an-ip' }, s)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', { 'x-forwarded-for': '1.1.1.1, unknown, 10.0.0.3' }, s)).toBe('10.0.0.3');
  });

  it('reads only the configured header: a Forwarded header cannot override X-Forwarded-For, nor the reverse', () => {
    const headers = { 'x-forwarded-for': '198.51.100.9', forwarded: 'for=1.1.1.1' };
    expect(clientAddress('10.0.0.2', headers, xff('10.0.0.0/8'))).toBe('198.51.100.9');
    expect(clientAddress('10.0.0.2', headers, fwd('10.0.0.0/8'))).toBe('1.1.1.1');
  });

  it('RFC 7239 Forwarded: quoted IPv6 with ports, several elements, other parameters', () => {
    expect(forwardedHops('forwarded', 'for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711", for=unknown, for=_hidden')).toEqual([
      '192.0.2.60',
      '2001:db8:cafe::17',
      undefined,
      undefined,
    ]);
    expect(clientAddress('10.0.0.2', { forwarded: 'for=1.1.1.1, for="[2001:db8::5]:80"' }, fwd('10.0.0.0/8'))).toBe('2001:db8::5');
    expect(clientAddress('10.0.0.2', { forwarded: 'for="192.0.2.1:8080";proto=https' }, fwd('10.0.0.0/8'))).toBe('192.0.2.1');
  });

  it('property: whatever a client prepends, the answer is what the trusted proxy appended', () => {
    const s = xff('10.0.0.0/8');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()), { maxLength: 6 }), fc.ipV4().filter((a) => !a.startsWith('10.')), (spoofed, real) => {
        const header = [...spoofed.map((x) => x.replace(/,/g, '')), real].join(', ');
        expect(clientAddress('10.0.0.2', { 'x-forwarded-for': header }, s)).toBe(real);
      }),
    );
  });
});

describe('gateway behind a proxy: the per-client limit', () => {
  const limits = { perClient: { burst: 2, perSecond: 0 }, global: { burst: 1000, perSecond: 1000 } };
  const preflight = (url: string, headers: Record<string, string>) =>
    call(url + PREFLIGHT_PATH, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' }).then((r) => r.status);

  it('from an untrusted peer, spoofed X-Forwarded-For and Forwarded headers do not give a new bucket', async () => {
    // This test's client is 127.0.0.1; only 10.0.0.0/8 is trusted.
    const gw = await startGateway({ rateLimit: limits, clientAddress: xff('10.0.0.0/8') });
    try {
      const statuses = [];
      for (let k = 0; k < 4; k++) statuses.push(await preflight(gw.url, { 'x-forwarded-for': `198.51.100.${k}`, forwarded: `for=198.51.100.${k}` }));
      expect(statuses).toEqual([200, 200, 429, 429]);
    } finally {
      await gw.stop();
    }
  });

  it('from a trusted proxy, each real client has its own bucket', async () => {
    const gw = await startGateway({ rateLimit: limits, clientAddress: xff('127.0.0.1') });
    try {
      const a = [];
      for (let k = 0; k < 3; k++) a.push(await preflight(gw.url, { 'x-forwarded-for': `6.6.6.${k}, 198.51.100.1` }));
      expect(a).toEqual([200, 200, 429]);
      expect(await preflight(gw.url, { 'x-forwarded-for': '198.51.100.2' })).toBe(200);
      const r = await call(gw.url + SUBMIT_PATH, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' }, body: '{}' });
      expect(r.status).toBe(429);
    } finally {
      await gw.stop();
    }
  });
});
