/** What the start-up banner shows: where the service is and, in demo mode, what to try on it. */
export interface BannerInput {
  url: string;
  demo?: {
    /** The funded devnet payer `npm run pay` uses by default: a public anvil test key. */
    payerKey: string;
    healthy?: string;
    decoy?: string;
    dead?: string;
  };
}

const DEFAULT_PAY_BASE = "http://localhost:8402";

/**
 * The banner once everything started: plain text on a terminal, one structured log line
 * otherwise (the same fields). Kept to what a newcomer needs in the first minute.
 */
export function banner(input: BannerInput): { text: string; fields: Record<string, unknown> } {
  const { url, demo } = input;
  const target = (u: string | undefined, fallback: string) => u ?? fallback;
  const healthy = target(demo?.healthy, "<an x402 endpoint URL>");
  const decoy = target(demo?.decoy, "<an x402 endpoint URL>");
  // npm run pay defaults to the usual address; any other one is named.
  const payEnv = sameAddress(url, DEFAULT_PAY_BASE) ? "" : `LOOKOUT_BASE_URL=${url} `;
  const commands = [
    `curl -s -X POST ${url}/api/v1/preflight-trial -H 'content-type: application/json' -d '{"url":"${healthy}"}'`,
    `${payEnv}npm run pay -- /api/v1/preflight '{"url":"${decoy}"}'`,
    `curl -s ${url}/readyz`,
  ];
  const lines = [`x402 Lookout is up at ${url}  (explorer: ${url}/endpoints)`];
  if (demo) {
    lines.push(
      `demo payer key (npm run pay's default; a public anvil test key, worthless off this devnet): ${demo.payerKey}`,
      `demo endpoints: healthy ${demo.healthy ?? "-"}`,
      `                decoy   ${demo.decoy ?? "-"}`,
      `                dead    ${demo.dead ?? "-"}`,
    );
  }
  lines.push("try:", ...commands.map((c) => `  ${c}`));
  const fields = {
    url,
    commands,
    ...(demo ? { demoPayerKey: demo.payerKey, demoEndpoints: { healthy: demo.healthy, decoy: demo.decoy, dead: demo.dead } } : {}),
  };
  return { text: `\n${lines.join("\n")}\n\n`, fields };
}

function sameAddress(a: string, b: string): boolean {
  const loopback = (h: string) => (["localhost", "127.0.0.1", "[::1]"].includes(h) ? "loopback" : h);
  const [x, y] = [new URL(a), new URL(b)];
  return loopback(x.hostname) === loopback(y.hostname) && x.port === y.port;
}
