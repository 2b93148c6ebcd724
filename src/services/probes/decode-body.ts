import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from "node:zlib";

/** A response body as its bytes arrive, and a way to stop reading it. */
export interface BodyStream extends AsyncIterable<Buffer> {
  destroy(): void;
}

const DECODERS: Readonly<Record<string, () => Gunzip>> = { gzip: createGunzip, "x-gzip": createGunzip, deflate: createInflate, br: createBrotliDecompress };

/**
 * The body decoded by its content-encoding, as the profiles' accept-encoding invites (gzip,
 * deflate, br). The caller's cap counts decoded bytes, so a compression bomb stops at the cap;
 * an unknown coding is passed through as it came.
 */
export function decodedBody(body: Readable, encoding: string | string[] | undefined): BodyStream {
  const coding = String((Array.isArray(encoding) ? encoding[0] : encoding) ?? "")
    .trim()
    .toLowerCase();
  const make = DECODERS[coding];
  if (!make) return body;
  const decoder = make();
  body.on("error", (err) => decoder.destroy(err));
  body.pipe(decoder);
  return {
    [Symbol.asyncIterator]: () => decoder[Symbol.asyncIterator](),
    destroy: () => {
      body.destroy();
      decoder.destroy();
    },
  };
}
