import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import { addressLimitKey } from '../../lib/rate-limit.ts';

/** Turns '10.0.0.0/8, 127.0.0.1, fd00::/8' into a BlockList that answers "is this address inside?". */
export function cidrList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const normal = normaliseAddress(address);
    const family = isIP(normal);
    if (!family) throw new Error(`Not an IP address or CIDR range: ${entry}`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(normal, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128))
        throw new Error(`Bad prefix length in ${entry}`);
      list.addSubnet(normal, bits, type);
    }
  }
  return list;
}

/** '::ffff:10.1.2.3' (an IPv4 peer on a dual-stack socket) is 10.1.2.3; zone ids are dropped. */
function normaliseAddress(address: string): string {
  let a = address.trim();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  return mapped ? mapped[1] : a;
}

/** True when the address is inside the list; anything that is not an IP address is outside. */
export function inList(list: BlockList, address: string): boolean {
  const a = normaliseAddress(address);
  const family = isIP(a);
  if (!family) return false;
  return list.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

interface Networks {
  adminAllowed: BlockList | null;
  trustedProxies: BlockList | null;
}
const cache = new WeakMap<AppConfig, Networks>();
function networksOf(config: AppConfig): Networks {
  let n = cache.get(config);
  if (!n) {
    n = {
      adminAllowed: config.ADMIN_ALLOWED_CIDRS.length ? cidrList(config.ADMIN_ALLOWED_CIDRS) : null,
      trustedProxies: config.TRUSTED_PROXY_CIDRS.length ? cidrList(config.TRUSTED_PROXY_CIDRS) : null,
    };
    cache.set(config, n);
  }
  return n;
}

/**
 * The address the request really comes from: the socket's peer, unless that peer is one of our
 * trusted proxies, in which case X-Forwarded-For is read from the right, skipping our own proxies,
 * and the first hop that is not ours is the client. Anyone else's X-Forwarded-For is ignored,
 * because a client can write whatever it likes there.
 */
export function clientAddressOf(config: AppConfig, request: FastifyRequest): string {
  const peer = normaliseAddress(request.socket?.remoteAddress ?? request.ip ?? '');
  const { trustedProxies } = networksOf(config);
  if (!trustedProxies || !inList(trustedProxies, peer)) return peer;
  const header = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(hops[i]);
    if (!isIP(hop)) return hop.slice(0, 64); // a garbled hop is not trusted and matches no range
    if (!inList(trustedProxies, hop)) return hop;
  }
  return hops.length ? normaliseAddress(hops[0]) : peer;
}

/** True when the admin area may be reached from this request's address (any address when no ranges are set). */
export function isAdminAddressAllowed(app: FastifyInstance, request: FastifyRequest): boolean {
  const { adminAllowed } = networksOf(app.config);
  if (!adminAllowed) return true;
  return inList(adminAllowed, clientAddressOf(app.config, request));
}

export const ADMIN_ADDRESS_REFUSED = 'Access to the admin area is restricted to pre-authorized IP addresses.';

/**
 * The visitor's address for per-address limits and records (forms, chat, CSP reports): the same
 * reading as `clientAddressOf`, so behind our own proxies every visitor counts on their own instead
 * of all of them sharing the proxy's address.
 */
export function visitorAddressOf(request: FastifyRequest): string {
  return clientAddressOf(request.server.config, request);
}

/**
 * What every per-address limit counts a visitor by (decision 191): the visitor's address as
 * `visitorAddressOf` reads it, turned into its limit key (an IPv6 address by its /64).
 */
export function visitorLimitKeyOf(request: FastifyRequest): string {
  return addressLimitKey(visitorAddressOf(request));
}
