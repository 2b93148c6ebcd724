import ipaddr from "ipaddr.js";

/**
 * Which IP literals a webhook URL may name as written. The same rule as src/lib/ssrf-guard.ts's
 * isPublicAddress, which the connect-time check keeps (lib may not import contracts); a test
 * holds the two equal.
 */
const bare = (ip: string) => (ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip);

/** Whether a host string is an IP literal in any notation (so no DNS lookup would happen). */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(bare(host));

const isPublicIPv4 = (ip: ipaddr.IPv4): boolean => ip.range() === "unicast";
// 2000::/3 is the only globally routed IPv6 unicast space; everything else is local or special.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

function embeddedIPv4(ip: ipaddr.IPv6, from: number): ipaddr.IPv4 {
  const p = ip.parts;
  return new ipaddr.IPv4([p[from]! >> 8, p[from]! & 0xff, p[from + 1]! >> 8, p[from + 1]! & 0xff]);
}

function isPublicIPv6(ip: ipaddr.IPv6): boolean {
  switch (ip.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return isPublicIPv4(embeddedIPv4(ip, 6));
    case "rfc6052":
      // 64:ff9b::/96 is the well-known NAT64 prefix; 64:ff9b:1::/48 is for local use only.
      return ip.parts[2] === 0 && isPublicIPv4(embeddedIPv4(ip, 6));
    case "6to4":
      return isPublicIPv4(embeddedIPv4(ip, 1));
    case "teredo": {
      const client = new ipaddr.IPv6(ip.parts.map((part, i) => (i >= 6 ? ~part & 0xffff : part)));
      return isPublicIPv4(embeddedIPv4(ip, 2)) && isPublicIPv4(embeddedIPv4(client, 6));
    }
    case "unicast":
      return ip.match(GLOBAL_UNICAST_V6);
    default:
      return false;
  }
}

/** Whether an IP literal is a globally routed unicast address. Anything unparseable is not. */
export function isPublicAddress(ip: string): boolean {
  const text = bare(ip);
  if (!ipaddr.isValid(text)) return false;
  const parsed = ipaddr.parse(text);
  return parsed.kind() === "ipv4" ? isPublicIPv4(parsed as ipaddr.IPv4) : isPublicIPv6(parsed as ipaddr.IPv6);
}

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback, in any notation ipaddr.js reads. */
export function isLoopbackAddress(ip: string): boolean {
  const text = bare(ip);
  if (!ipaddr.isValid(text)) return false;
  return ipaddr.process(text).range() === "loopback";
}
