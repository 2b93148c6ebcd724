import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

/** A file written with backpressure, its size and SHA-256 computed on the way. */
export class FileSink {
  private readonly out;
  private readonly hash = createHash("sha256");
  private bytes = 0;

  constructor(path: string) {
    this.out = createWriteStream(path, { flags: "wx" });
  }

  async write(text: string): Promise<void> {
    const chunk = Buffer.from(text, "utf8");
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }

  async close(): Promise<WrittenFile> {
    this.out.end();
    await once(this.out, "finish");
    return { bytes: this.bytes, sha256: this.hash.digest("hex") };
  }
}

/** Text a spreadsheet would read as a formula (OWASP CSV injection): =, +, -, @, tab, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: quote a field holding a comma, quote or line break; double inner quotes. Text cells
 * that a spreadsheet would evaluate (catalog-controlled names, URLs) get a leading `'`, as OWASP
 * advises; numbers and booleans are ours and stay as they are. JSON Lines keeps text verbatim.
 */
export function csvField(value: string | number | boolean | string[] | null): string {
  if (value === null) return "";
  const raw = Array.isArray(value) ? value.join(";") : String(value);
  const text = typeof value !== "number" && typeof value !== "boolean" && FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
