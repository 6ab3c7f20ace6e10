import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** The longest endpoint URL (docs/API.md, "Webhooks"). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Addresses a webhook may never be sent to unless the operator allows private URLs (docs/API.md,
 * "Webhooks"; OWASP's SSRF prevention): loopback, private, shared (carrier-grade NAT), link-local
 * (the cloud metadata address 169.254.169.254 among them), unique-local (fd00:ec2::254, another
 * metadata address), unspecified, multicast and reserved ranges. The connection-time check is
 * request-filtering-agent's (webhook-sender.ts), which refuses every address that is not
 * ordinary unicast; this list says the same at save time, with node's own BlockList.
 */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
// IPv4 inside IPv6 (IPv4-compatible, NAT64, 6to4, Teredo) reaches any IPv4 address, the private
// ones included: refused whole, as request-filtering-agent refuses them when connecting.
for (const [network, prefix] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['2002::', 16],
  ['fec0::', 10],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may not reach (an IPv4-mapped IPv6 one as its IPv4). */
export function isRefusedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isRefusedAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type UrlRefusal = string;

/** Resolves a host name to its addresses, as a connection would (every address it has). */
export type Resolve = (host: string) => Promise<string[]>;

export const resolveHost: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Why `url` may not be an endpoint's URL (docs/API.md, "Webhooks"), or null when it may: its text
 * (refuseUrlText), then its host (refuseUrlHost).
 */
export async function refuseWebhookUrl(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveHost,
): Promise<UrlRefusal | null> {
  return (
    refuseUrlText(url, allowPrivate) ??
    (await refuseUrlHost(url, allowPrivate, resolve))
  );
}

/**
 * Why `url` may not be an endpoint's URL by its text alone, or null when it may: an absolute
 * `https://` URL (or `http://` where private URLs are allowed) without credentials, at most
 * MAX_WEBHOOK_URL_LENGTH characters. A field's value, checked with the body's other fields, before
 * the retry key's kept answer is looked for (docs/API.md, "Precedence").
 */
export function refuseUrlText(
  url: string,
  allowPrivate: boolean,
): UrlRefusal | null {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    return `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute https:// URL';
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    return allowPrivate
      ? 'url must be an https:// or http:// URL'
      : 'url must be an https:// URL';
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return 'url must not carry a user name or password';
  }
  return null;
}

/**
 * Why the host of `url`, a URL whose text refuseUrlText allows, may not be sent to, or null when
 * it may: unless private URLs are allowed, it resolves, and only to public addresses (an IP
 * literal is the address it spells). Nothing is sent to the host: only its name is resolved. What
 * it finds depends on the world outside and on the moment, so a write runs it only when the write
 * itself runs (Write.prepare), never for a retry its key's kept answer answers.
 */
export async function refuseUrlHost(
  url: string,
  allowPrivate: boolean,
  resolve: Resolve = resolveHost,
): Promise<UrlRefusal | null> {
  if (allowPrivate) return null;
  // `[::1]` is written with brackets in a URL; the address is what lies between them.
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return `url's host ${host} does not resolve`;
    }
  }
  if (addresses.length === 0) return `url's host ${host} does not resolve`;
  if (addresses.some(isRefusedAddress)) {
    return `url's host ${host} is a loopback, private, link-local or otherwise reserved address, where webhooks are not sent`;
  }
  return null;
}
