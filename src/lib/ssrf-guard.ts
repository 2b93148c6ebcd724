import dns from "node:dns";
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";

/**
 * Outbound requests to addresses a catalog or a customer names must not reach our own network:
 * loopback, private ranges, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254),
 * and everything else that is not globally routed unicast. The check runs on the address the
 * socket actually connects to (inside the connector's DNS lookup), so a name that resolves to a
 * public address at validation time and to 127.0.0.1 at connect time (DNS rebinding) is refused.
 */

export class SsrfBlockedError extends Error {
  readonly kind = "ssrf_blocked";
  readonly code = "ERR_SSRF_BLOCKED";
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`refused to connect to ${host} (${address}): not a public address`);
    this.name = "SsrfBlockedError";
  }
}

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

/**
 * Whether an IP literal (any notation ipaddr.js accepts: dotted, decimal, octal, hex, IPv6 with
 * or without brackets) is a globally routed unicast address. Anything unparseable is not.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === "ipv4" ? isPublicIPv4(parsed as ipaddr.IPv4) : isPublicIPv6(parsed as ipaddr.IPv6);
}

/** Whether a host string is an IP literal in any notation (so no DNS lookup would happen). */
export const isIpLiteral = (host: string): boolean => ipaddr.isValid(host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host);

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

const systemLookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => callback(err, addresses));

/** A net.connect `lookup` that refuses the connection when any resolved address is not public. */
export function guardLookup(base: LookupFunction = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, result) => {
      if (err) return callback(err, []);
      const addresses = typeof result === "string" ? [{ address: result, family: 0 }] : result;
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
      const blocked = addresses.find((a) => !isPublicAddress(a.address));
      if (blocked) return callback(new SsrfBlockedError(hostname, blocked.address), []);
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family || (first.address.includes(":") ? 6 : 4));
    });
  };
}

export interface GuardedDispatcherOptions {
  /** Tests and the demo fleet only: connect to loopback and private addresses too. */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** Connections per origin (default 4). */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Response header block cap (default 16 KiB, Node's); probes pass their own, which reads large challenges. */
  maxHeaderSize?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Name resolution (default: the system resolver); tests point names at chosen addresses. */
  lookup?: LookupFunction;
  /** The local address connections leave from (a prober's PROBE_SOURCE_ADDRESS, decision 0048). */
  localAddress?: string;
}

/** An undici Agent whose every connection passes the SSRF guard unless allowPrivate is set. */
export function createGuardedDispatcher(opts: GuardedDispatcherOptions): Agent {
  const base = buildConnector({
    timeout: opts.connectTimeoutMs,
    ...(opts.allowPrivate ? (opts.lookup ? { lookup: opts.lookup } : {}) : { lookup: guardLookup(opts.lookup) }),
  });
  const connect: buildConnector.connector = (options, callback) => {
    // Literal addresses never reach the lookup, so they are checked here.
    if (!opts.allowPrivate && isIpLiteral(options.hostname) && !isPublicAddress(options.hostname)) {
      callback(new SsrfBlockedError(options.hostname, options.hostname), null);
      return;
    }
    base(opts.localAddress === undefined ? options : { ...options, localAddress: opts.localAddress }, callback);
  };
  return new Agent({
    connect,
    connections: opts.connections ?? 4,
    keepAliveTimeout: opts.keepAliveTimeoutMs ?? 4_000,
    maxHeaderSize: opts.maxHeaderSize ?? 16 * 1024,
    headersTimeout: opts.headersTimeoutMs ?? opts.connectTimeoutMs,
    bodyTimeout: opts.bodyTimeoutMs ?? opts.connectTimeoutMs,
  });
}
