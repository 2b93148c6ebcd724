import type { Writable } from "node:stream";

const WIDTH = 30;
const EVERY_MS = 100;

/**
 * A one-line progress bar redrawn with '\r', for terminals only: on a pipe or a log file it
 * would be noise, so it draws nothing when the stream is not a TTY.
 */
export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly out: Writable & { isTTY?: boolean },
    private readonly totalBytes: number,
  ) {}

  update(bytes: number, lines: number, force = false): void {
    if (!this.out.isTTY) return;
    const now = performance.now();
    if (!force && now - this.lastDraw < EVERY_MS) return;
    this.lastDraw = now;
    const ratio = this.totalBytes > 0 ? Math.min(1, bytes / this.totalBytes) : 1;
    const filled = Math.round(ratio * WIDTH);
    this.out.write(
      `\r[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%  ${lines.toLocaleString("en-US")} lines`,
    );
    this.drawn = true;
  }

  /** Ends the bar's line so the next output starts clean. */
  done(): void {
    if (this.drawn) this.out.write("\n");
  }
}
