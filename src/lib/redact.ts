/**
 * How configured values may appear in messages and logs. User info, path and query of a URL can
 * hold a password or an API key (postgres://user:pass@db, https://rpc.example/v2/<key>), so
 * only scheme://host[:port] is shown; a value that does not parse as such is not shown at all.
 */
export function shownUrl(raw: string): string {
  if (!URL.canParse(raw)) return "[not shown: not an absolute URL]";
  const u = new URL(raw);
  return u.host ? `${u.protocol}//${u.host}` : "[not shown: no host]";
}

/** Variable names whose values are secrets as a whole (FACILITATOR_AUTH_HEADER, PAYER_KEY, ...). */
const SECRET_NAME = /(KEY|SECRET|TOKEN|PASSWORD|AUTH_HEADER)$/i;

/** A configured value as an error message may show it: secrets never, URLs by origin only. */
export function shownSetting(name: string, raw: string | undefined): string {
  if (raw === undefined) return '""';
  if (SECRET_NAME.test(name)) return "[redacted]";
  if (/_URLS?$/i.test(name))
    return JSON.stringify(
      raw
        .split(",")
        .map((u) => shownUrl(u.trim()))
        .join(","),
    );
  return JSON.stringify(raw);
}
