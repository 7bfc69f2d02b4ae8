import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a per-client rate limit counts under: an IPv4 address (also when
 * written as IPv4-mapped IPv6) as it is, an IPv6 address by its /64, since
 * one IPv6 subscriber is usually given a whole /64 and can move within it at
 * will. Anything else (no address) as given.
 */
export function rateLimitClient(ip: string): string {
  // An IPv4 address (nearly every request's, on most networks) has no colon: nothing to map or to group.
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const groups = expandIPv6(ip.split('%')[0]!);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hex without leading zeros. */
function expandIPv6(ip: string): string[] {
  let text = ip.toLowerCase();
  // An embedded IPv4 tail (`::1.2.3.4`) as two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, tail.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const missing = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => parseInt(group, 16).toString(16));
}
