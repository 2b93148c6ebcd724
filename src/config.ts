import { isIP } from "node:net";
import { z } from "zod";
import { normalizeCdpKeySecret, type CdpApiKey } from "./lib/cdp-key.js";
import { shownSetting } from "./lib/redact.js";

/**
 * The config contract of docs (architecture guide section 4). Parsed once in main.ts; a bad
 * value stops the program before it listens, with one line per problem.
 */

const ROLES = ["api", "prober", "ingester", "alerter", "canary", "indexer", "all"] as const;
export type Role = Exclude<(typeof ROLES)[number], "all">;

export const NETWORKS = ["eip155:84532", "eip155:8453"] as const;
export type Network = (typeof NETWORKS)[number];

const bool = (name: string) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], {
      error: `${name} must be true or false`,
    })
    .transform((v) => v === "true" || v === "1" || v === "yes");

const seconds = (min: number, max: number) =>
  z.coerce
    .number({ error: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(min, `must be at least ${min} seconds`)
    .max(max, `must be at most ${max} seconds`);

/**
 * Demo mode's defaults where a variable is unset (docs/demo-fleet.md, "The first ten minutes"):
 * probes every 30 s so a certificate's 20 probes exist within about ten minutes, loopback webhooks
 * so the demo's own receivers can take a watch alert, and the dataset's first build after an hour.
 */
export const DEMO_DEFAULTS = {
  probeIntervalSeconds: 30,
  allowPrivateWebhooks: true,
  allowPrivateLiveProbes: true,
  datasetMinEvidenceHours: 1,
  // The paid checker (decision 0051): each listing every 3 minutes, the fleet's few loopback hosts serve every merchant.
  canaryIntervalHours: 0.05,
  canaryHostChecksPerDay: 5000,
  canaryBudgetUsdcPerDay: "10",
  // The chain indexer (decision 0052): the devnet does not reorganise, and its listings are minutes old,
  // so an unpaid one is a ghost after 6 minutes listed instead of 7 days.
  chainConfirmations: 0,
  chainIndexIntervalSeconds: 5,
  ghostMinListedHours: 0.1,
} as const;

/** The chain indexer's settings where unset, outside demo mode (decision 0052). */
export const CHAIN_DEFAULTS = { confirmations: 5, rangeBlocks: 2000, rpcPerSecond: 10, indexIntervalSeconds: 15, ghostMinListedHours: 168 } as const;

/** The paid checker's limits where unset, outside demo mode (decision 0051). */
export const CANARY_DEFAULTS = { budgetUsdcPerDay: "1", maxPriceUsdc: "0.01", intervalHours: 24, hostChecksPerDay: 24 } as const;

/** A USDC amount as a decimal string of at most 6 decimals, kept as text: money is never a float. */
const usdc = (max: number) =>
  z
    .string()
    .refine(
      (v) => /^\d+(\.\d{1,6})?$/.test(v) && Number(v) > 0 && Number(v) <= max,
      `must be a USDC amount above 0 and at most ${max}, such as 0.01 (at most 6 decimals)`,
    );

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://lookout.example" }).transform((u) => u.replace(/\/+$/, ""));

/** A 32-byte AES-256 key: 64 hex characters or base64. */
const key32 = z.string().transform((v, ctx) => {
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, "hex") : Buffer.from(v, "base64");
  if (key.length !== 32) ctx.addIssue({ code: "custom", message: "must be 32 bytes: 64 hex characters or base64" });
  return key.length === 32 ? key : z.NEVER;
});

const envSchema = z.object({
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(8402),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_BASE_URL: httpUrl.optional(),
  OPERATOR_CONTACT: z.string().trim().min(3).max(200).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  ROLE: z
    .string()
    .default("all")
    .transform((v, ctx) => {
      const roles = v.split(",").map((r) => r.trim());
      for (const r of roles) {
        if (!(ROLES as readonly string[]).includes(r)) {
          ctx.addIssue({ code: "custom", message: `must be one of ${ROLES.join(", ")} (comma-separated)` });
          return z.NEVER;
        }
      }
      return roles.includes("all") ? (["api", "prober", "ingester", "alerter", "canary", "indexer"] as Role[]) : (roles as Role[]);
    }),
  NETWORK: z.enum(NETWORKS, { error: `must be one of ${NETWORKS.join(", ")}` }).default("eip155:84532"),
  PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
    .optional(),
  FACILITATOR_URL: httpUrl.optional(),
  FACILITATOR_AUTH_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+: ?.+$/, "must look like 'Header-Name: value'")
    .optional(),
  CDP_API_KEY_ID: z.string().optional(),
  CDP_API_KEY_SECRET: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const secret = normalizeCdpKeySecret(v);
      if (!secret) ctx.addIssue({ code: "custom", message: "must be a CDP API key secret: base64 Ed25519, or an EC P-256 private key in PEM" });
      return secret ?? z.NEVER;
    }),
  RPC_URL: httpUrl.optional(),
  CATALOG_URLS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const urls = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      for (const [n, entry] of urls.entries()) {
        // `id=https://...` names the source (docs/catalog.md); a URL alone is its own id.
        const u = entry.replace(/^[a-z0-9][a-z0-9._-]{0,63}=(?=https?:\/\/)/i, "");
        if (!URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol)) {
          // By position, not value: a catalog URL may carry an access token.
          ctx.addIssue({ code: "custom", message: `entry ${n + 1} is not an http(s) URL; expected comma-separated discovery URLs, each optionally id=URL` });
          return z.NEVER;
        }
      }
      return urls;
    }),
  CATALOG_POLL_SECONDS: seconds(5, 86_400).default(300),
  // A source not polled completely for this long (removed from CATALOG_URLS, or failing) stops counting.
  CATALOG_SOURCE_GRACE_HOURS: z.coerce.number({ error: "must be a whole number of hours" }).int().min(1).max(720).default(24),
  PROBE_INTERVAL_SECONDS: seconds(5, 86_400).optional(),
  ALLOW_PRIVATE_TARGETS: bool("ALLOW_PRIVATE_TARGETS").optional(),
  // Where this prober's probes leave from (decision 0048): a name stored with each probe, and a local address.
  PROBE_VANTAGE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/i, "must be a name of 1 to 40 letters, digits, dots, dashes or underscores, starting with a letter or digit")
    .default("default"),
  PROBE_SOURCE_ADDRESS: z
    .string()
    .refine((v) => isIP(v) !== 0, "must be an IPv4 or IPv6 address of this host")
    .optional(),
  // Customer-named URLs (live probes of uncatalogued URLs) have their own switch: the catalog's does not open them.
  ALLOW_PRIVATE_LIVE_PROBES: bool("ALLOW_PRIVATE_LIVE_PROBES").optional(),
  ALLOW_PRIVATE_WEBHOOKS: bool("ALLOW_PRIVATE_WEBHOOKS").optional(),
  // Seals watch secrets at rest (decision 0025).
  WATCH_SECRET_KEY: key32.optional(),
  // Seals the verdict and certificate signing keys at rest (decision 0031).
  SIGNING_SECRET_KEY: key32.optional(),
  TRUST_PROXY: bool("TRUST_PROXY").default(false),
  MAX_ENTRIES: z.coerce.number({ error: "must be a whole number" }).int().min(1).max(1_000_000).default(5000),
  DATASET_MIN_EVIDENCE_HOURS: z.coerce
    .number({ error: "must be a whole number of hours" })
    .int("must be a whole number of hours")
    .min(1, "must be at least 1 hour")
    .max(168, "must be at most 168 hours (a week)")
    .optional(),
  REPORT_CACHE_ROWS: z.coerce.number({ error: "must be a whole number" }).int().min(0, "must be 0 (off) or more").max(10_000_000).default(250_000),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  LOG_FORMAT: z.enum(["auto", "pretty", "json"], { error: "must be auto, pretty or json" }).optional(),
  CI: z.string().optional(),
  ADMIN_PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).optional(),
  ADMIN_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // The paid checker (role canary, decision 0051): its own wallet and the limits on what it spends.
  CANARY_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key")
    .optional(),
  CANARY_BUDGET_USDC_PER_DAY: usdc(1_000).optional(),
  CANARY_MAX_PRICE_USDC: usdc(1).optional(),
  CANARY_INTERVAL_HOURS: z.coerce
    .number({ error: "must be a number of hours" })
    .min(0.01, "must be at least 0.01 hours (36 seconds)")
    .max(720, "must be at most 720 hours (30 days)")
    .optional(),
  CANARY_HOST_CHECKS_PER_DAY: z.coerce.number({ error: "must be a whole number" }).int().min(1).max(100_000).optional(),
  // The chain indexer (role indexer, decision 0052): how it reads USDC settlements through RPC_URL.
  CHAIN_CONFIRMATIONS: z.coerce.number({ error: "must be a whole number of blocks" }).int().min(0).max(1000).optional(),
  CHAIN_LOG_RANGE_BLOCKS: z.coerce.number({ error: "must be a whole number of blocks" }).int().min(1).max(1_000_000).default(CHAIN_DEFAULTS.rangeBlocks),
  CHAIN_RPC_PER_SECOND: z.coerce.number({ error: "must be a number of requests" }).min(0.1).max(10_000).default(CHAIN_DEFAULTS.rpcPerSecond),
  CHAIN_INDEX_INTERVAL_SECONDS: seconds(1, 3600).optional(),
  GHOST_MIN_LISTED_HOURS: z.coerce
    .number({ error: "must be a number of hours" })
    .min(0.01, "must be at least 0.01 hours (36 seconds)")
    .max(720, "must be at most 720 hours (30 days)")
    .optional(),
  READY_VERDICT_MAX_AGE_SECONDS: seconds(30, 86_400).default(300),
  READY_CATALOG_MAX_AGE_SECONDS: seconds(30, 7 * 86_400).optional(),
  READY_START_GRACE_SECONDS: seconds(0, 86_400).default(600),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  /** The service's own base address, without a trailing slash. */
  publicBaseUrl: string;
  /** Who runs the prober, shown on /prober (probes name no one; decision 0020). */
  operatorContact: string | null;
  dataDir: string;
  databaseUrl: string | undefined;
  roles: Role[];
  network: Network;
  /** undefined means: the devnet's pay-to account, known once the devnet is up. */
  payTo: `0x${string}` | undefined;
  facilitatorUrl: string | undefined;
  facilitatorAuthHeader: { name: string; value: string } | undefined;
  /** CDP's facilitator: every call carries a fresh JWT signed with this key. */
  cdpApiKey: CdpApiKey | undefined;
  /** Chain reads with a remote facilitator (the payment reconciler); undefined: the network's public RPC. */
  rpcUrl: string | undefined;
  /** undefined means demo mode: the bundled demo fleet and its catalog. */
  catalogUrls: string[] | undefined;
  demoMode: boolean;
  catalogPollSeconds: number;
  /** Hours after its last complete poll that a source's listings still count (docs/catalog.md, "Retirement"). */
  catalogSourceGraceHours: number;
  probeIntervalSeconds: number;
  /** This prober's vantage name (PROBE_VANTAGE, default 'default'; decision 0048). */
  probeVantage: string;
  /** The local address probes leave from (PROBE_SOURCE_ADDRESS); undefined: the system's choice. */
  probeSourceAddress: string | undefined;
  allowPrivateTargets: boolean;
  /** Live probes of customer-named URLs may reach loopback and private addresses; default on only in demo mode. */
  allowPrivateLiveProbes: boolean;
  allowPrivateWebhooks: boolean;
  /** AES-256-GCM key sealing watch secrets in the database; undefined: stored as-is (decision 0025). */
  watchSecretKey: Buffer | undefined;
  /** AES-256-GCM key sealing the signing keys in the database; undefined: kept in clear (decision 0031). */
  signingSecretKey: Buffer | undefined;
  trustProxy: boolean;
  maxEntries: number;
  /** Hours of probe evidence the first public dataset build waits for (docs/dataset.md). */
  datasetMinEvidenceHours: number;
  /** Report rows each API process keeps in memory (0: none); docs/decisions/0012-report-rows-cached-per-process.md. */
  reportCacheRows: number;
  logLevel: string;
  /** auto: pretty on a terminal, JSON otherwise (and always JSON under CI). */
  logFormat: "auto" | "pretty" | "json";
  /** A separate listener for /metrics, /healthz and /readyz; when set, /metrics leaves the API port. */
  admin: { port: number; host: string } | undefined;
  /** When set, /metrics answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** The paid checker (decision 0051); privateKey undefined: the canary role is off (in demo mode, the devnet's canary account). */
  canary: CanaryConfig;
  /** The chain indexer (decision 0052). */
  chain: ChainConfig;
  /** /readyz bounds (docs/operations.md); inside the start grace a verdict and a poll need only exist. */
  ready: { verdictMaxAgeSeconds: number; catalogMaxAgeSeconds: number; startGraceSeconds: number };
}

export interface ChainConfig {
  /** Blocks behind the head not read yet. */
  confirmations: number;
  /** Blocks per eth_getLogs request (a refused range is split). */
  rangeBlocks: number;
  /** Requests per second to RPC_URL, at most. */
  rpcPerSecond: number;
  indexIntervalSeconds: number;
  /** An alive listing with no settlement in 30 days is a ghost once listed this long. */
  ghostMinListedHours: number;
}

export interface CanaryConfig {
  privateKey: `0x${string}` | undefined;
  /** USDC per rolling 24 hours, across every canary process of the database. */
  budgetUsdcPerDay: string;
  /** No check pays more than this per call. */
  maxPriceUsdc: string;
  /** A listing is checked at most once per this many hours. */
  intervalHours: number;
  /** Checks per host per rolling 24 hours. */
  hostChecksPerDay: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "ConfigError";
  }
}

/** Parses the environment. Throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const clean = Object.fromEntries(Object.keys(envSchema.shape).map((k) => [k, env[k] === "" ? undefined : env[k]]));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        // The value is shown redacted (URLs by origin, secrets not at all): these lines reach logs.
        const name = String(i.path[0] ?? "config");
        return `config: ${name}=${shownSetting(name, env[name])} ${i.message}`;
      }),
    );
  }
  const e = parsed.data;
  const demoMode = e.CATALOG_URLS === undefined;
  const problems: string[] = [];
  if (e.NETWORK === "eip155:8453") {
    if (!e.FACILITATOR_URL)
      problems.push("config: NETWORK=eip155:8453 (Base mainnet) needs FACILITATOR_URL: the local devnet facilitator only settles on eip155:84532");
    if (!e.PAY_TO) problems.push("config: NETWORK=eip155:8453 (Base mainnet) needs PAY_TO: the devnet account cannot receive real USDC");
    if (e.ALLOW_PRIVATE_WEBHOOKS) problems.push("config: ALLOW_PRIVATE_WEBHOOKS=true is for tests and demos only and is refused with NETWORK=eip155:8453");
    if (e.ALLOW_PRIVATE_TARGETS) problems.push("config: ALLOW_PRIVATE_TARGETS=true is for tests and demos only and is refused with NETWORK=eip155:8453");
    if (e.ALLOW_PRIVATE_LIVE_PROBES)
      problems.push("config: ALLOW_PRIVATE_LIVE_PROBES=true is for tests and demos only and is refused with NETWORK=eip155:8453");
    if (demoMode) problems.push("config: NETWORK=eip155:8453 (Base mainnet) needs CATALOG_URLS: the demo fleet is a local devnet fixture");
    // Secrets at rest and the operator's metrics: a dump or a scrape must not give them away (decision 0031).
    if (!e.WATCH_SECRET_KEY) problems.push("config: NETWORK=eip155:8453 (Base mainnet) needs WATCH_SECRET_KEY: watch secrets are sealed at rest on mainnet");
    if (!e.SIGNING_SECRET_KEY)
      problems.push(
        "config: NETWORK=eip155:8453 (Base mainnet) needs SIGNING_SECRET_KEY: the verdict and certificate signing key is sealed at rest on mainnet",
      );
    if (e.ADMIN_PORT === undefined && !e.METRICS_TOKEN)
      problems.push("config: NETWORK=eip155:8453 (Base mainnet) needs ADMIN_PORT or METRICS_TOKEN: /metrics is not served publicly on mainnet");
  }
  if (e.NETWORK === "eip155:8453" && e.CANARY_PRIVATE_KEY && !e.CANARY_BUDGET_USDC_PER_DAY)
    problems.push("config: NETWORK=eip155:8453 (Base mainnet) with CANARY_PRIVATE_KEY needs CANARY_BUDGET_USDC_PER_DAY: the paid checker spends real USDC");
  if (e.FACILITATOR_URL && !e.PAY_TO) {
    problems.push("config: FACILITATOR_URL is set but PAY_TO is not: a remote facilitator settles to a real address, set PAY_TO");
  }
  if (e.FACILITATOR_AUTH_HEADER && !e.FACILITATOR_URL) {
    problems.push("config: FACILITATOR_AUTH_HEADER is set without FACILITATOR_URL: the local facilitator takes no auth");
  }
  const cdpKey = e.CDP_API_KEY_ID !== undefined || e.CDP_API_KEY_SECRET !== undefined;
  if (cdpKey && (e.CDP_API_KEY_ID === undefined || e.CDP_API_KEY_SECRET === undefined)) {
    problems.push("config: CDP_API_KEY_ID and CDP_API_KEY_SECRET go together: set both (one CDP API key) or neither");
  }
  if (cdpKey && e.FACILITATOR_AUTH_HEADER) {
    problems.push("config: CDP_API_KEY_ID/CDP_API_KEY_SECRET and FACILITATOR_AUTH_HEADER are both set: a facilitator takes one kind of auth, set one");
  }
  if (cdpKey && !e.FACILITATOR_URL) {
    problems.push("config: CDP_API_KEY_ID/CDP_API_KEY_SECRET are set without FACILITATOR_URL: CDP's is https://api.cdp.coinbase.com/platform/v2/x402");
  }
  if (e.ADMIN_PORT !== undefined && e.ADMIN_PORT !== 0 && e.ADMIN_PORT === e.PORT) {
    problems.push(`config: ADMIN_PORT=${e.ADMIN_PORT} is PORT too: the admin listener needs a port of its own`);
  }
  if (problems.length) throw new ConfigError(problems);

  const port = e.PORT;
  const auth = e.FACILITATOR_AUTH_HEADER?.match(/^([A-Za-z0-9-]+): ?(.+)$/);
  return {
    port,
    host: e.HOST,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
    operatorContact: e.OPERATOR_CONTACT ?? null,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    roles: e.ROLE,
    network: e.NETWORK,
    payTo: e.PAY_TO as `0x${string}` | undefined,
    facilitatorUrl: e.FACILITATOR_URL,
    facilitatorAuthHeader: auth ? { name: auth[1]!, value: auth[2]! } : undefined,
    cdpApiKey: e.CDP_API_KEY_ID && e.CDP_API_KEY_SECRET ? { keyId: e.CDP_API_KEY_ID, keySecret: e.CDP_API_KEY_SECRET } : undefined,
    rpcUrl: e.RPC_URL,
    catalogUrls: e.CATALOG_URLS,
    demoMode,
    catalogPollSeconds: e.CATALOG_POLL_SECONDS,
    catalogSourceGraceHours: e.CATALOG_SOURCE_GRACE_HOURS,
    probeIntervalSeconds: e.PROBE_INTERVAL_SECONDS ?? (demoMode ? DEMO_DEFAULTS.probeIntervalSeconds : 600),
    probeVantage: e.PROBE_VANTAGE,
    probeSourceAddress: e.PROBE_SOURCE_ADDRESS,
    allowPrivateTargets: e.ALLOW_PRIVATE_TARGETS ?? demoMode,
    allowPrivateLiveProbes: e.ALLOW_PRIVATE_LIVE_PROBES ?? (demoMode && DEMO_DEFAULTS.allowPrivateLiveProbes),
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS ?? (demoMode && DEMO_DEFAULTS.allowPrivateWebhooks),
    watchSecretKey: e.WATCH_SECRET_KEY,
    signingSecretKey: e.SIGNING_SECRET_KEY,
    trustProxy: e.TRUST_PROXY,
    maxEntries: e.MAX_ENTRIES,
    datasetMinEvidenceHours: e.DATASET_MIN_EVIDENCE_HOURS ?? (demoMode ? DEMO_DEFAULTS.datasetMinEvidenceHours : 168),
    reportCacheRows: e.REPORT_CACHE_ROWS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.CI && e.CI !== "false" ? "json" : "auto"),
    admin: e.ADMIN_PORT === undefined ? undefined : { port: e.ADMIN_PORT, host: e.ADMIN_HOST },
    metricsToken: e.METRICS_TOKEN,
    canary: {
      privateKey: e.CANARY_PRIVATE_KEY as `0x${string}` | undefined,
      budgetUsdcPerDay: e.CANARY_BUDGET_USDC_PER_DAY ?? (demoMode ? DEMO_DEFAULTS.canaryBudgetUsdcPerDay : CANARY_DEFAULTS.budgetUsdcPerDay),
      maxPriceUsdc: e.CANARY_MAX_PRICE_USDC ?? CANARY_DEFAULTS.maxPriceUsdc,
      intervalHours: e.CANARY_INTERVAL_HOURS ?? (demoMode ? DEMO_DEFAULTS.canaryIntervalHours : CANARY_DEFAULTS.intervalHours),
      hostChecksPerDay: e.CANARY_HOST_CHECKS_PER_DAY ?? (demoMode ? DEMO_DEFAULTS.canaryHostChecksPerDay : CANARY_DEFAULTS.hostChecksPerDay),
    },
    chain: {
      confirmations: e.CHAIN_CONFIRMATIONS ?? (demoMode ? DEMO_DEFAULTS.chainConfirmations : CHAIN_DEFAULTS.confirmations),
      rangeBlocks: e.CHAIN_LOG_RANGE_BLOCKS,
      rpcPerSecond: e.CHAIN_RPC_PER_SECOND,
      indexIntervalSeconds: e.CHAIN_INDEX_INTERVAL_SECONDS ?? (demoMode ? DEMO_DEFAULTS.chainIndexIntervalSeconds : CHAIN_DEFAULTS.indexIntervalSeconds),
      ghostMinListedHours: e.GHOST_MIN_LISTED_HOURS ?? (demoMode ? DEMO_DEFAULTS.ghostMinListedHours : CHAIN_DEFAULTS.ghostMinListedHours),
    },
    ready: {
      verdictMaxAgeSeconds: e.READY_VERDICT_MAX_AGE_SECONDS,
      // Three missed polls, and never under a quarter hour.
      catalogMaxAgeSeconds: e.READY_CATALOG_MAX_AGE_SECONDS ?? Math.max(900, 3 * e.CATALOG_POLL_SECONDS),
      startGraceSeconds: e.READY_START_GRACE_SECONDS,
    },
  };
}
