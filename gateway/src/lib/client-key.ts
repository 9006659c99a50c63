/** The throttling key of a client address (sign-in limits, public sign-ups, checkouts). */
function expandIpv6(ip: string): string[] | null {
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(Math.max(0, missing)).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => g.toLowerCase().padStart(4, '0'));
}

/**
 * The throttling key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64
 * (one subscriber line usually owns a whole /64, so counting single addresses would not limit anything).
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const groups = expandIpv6(ip.replace(/%.*$/, ''));
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}
