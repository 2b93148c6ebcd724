import ipaddr from "ipaddr.js";

/**
 * The network a client address belongs to for the trial's per-host shares (decision 0027): its
 * /24 for IPv4 (IPv4-mapped IPv6 included), its /48 for IPv6, the usual sizes one party holds.
 * Text that is not an address is its own network.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const a = ipaddr.process(ip);
  if (a.kind() === "ipv4") return `${(a as ipaddr.IPv4).octets.slice(0, 3).join(".")}.0/24`;
  const parts = (a as ipaddr.IPv6).parts.slice(0, 3);
  return `${parts.map((p) => p.toString(16)).join(":")}::/48`;
}
