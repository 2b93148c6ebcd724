import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/**
 * The Content-Security-Policy of every HTML page. Inline scripts run only by the sha256 of their
 * text, registered when their module loads (inlineScript), so markup injected into a page runs
 * nothing. Styles likewise: a page's <style> text is static text of its module (PageExtras), hashed
 * the first time it is drawn. Nothing loads from elsewhere; images also from data: and the
 * public base URL (badges are linked by it); no framing, forms post here only.
 */
const scripts = new Set<string>();
const styles = new Map<string, string>();

const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** A <script> element of static text; its hash joins the policy now, at module load. */
export function inlineScript(text: string): HtmlEscapedString {
  scripts.add(hashOf(text));
  return raw(`<script>${text}</script>`);
}

/** A <style> element of static module text (never request data); hashed once. */
export function inlineStyle(text: string): HtmlEscapedString {
  if (!styles.has(text)) styles.set(text, hashOf(text));
  return raw(`<style>${text}</style>`);
}

export function contentSecurityPolicy(publicBaseUrl: string): string {
  const list = (hashes: Iterable<string>) => [...hashes].join(" ") || "'none'";
  return [
    "default-src 'none'",
    `script-src ${list(scripts)}`,
    `style-src ${list(new Set(styles.values()))}`,
    `img-src 'self' data: ${new URL(publicBaseUrl).origin}`,
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Sets the policy on every text/html answer (pages and their error pages), after the page is drawn. */
export function pagePolicy(publicBaseUrl: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.headers.get("content-type")?.startsWith("text/html")) c.res.headers.set("content-security-policy", contentSecurityPolicy(publicBaseUrl));
  };
}
