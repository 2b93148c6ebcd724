import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeSigningKey, publicJwks, RETIRED_KEY_GRACE_MS } from "../../src/services/certificates/signing-keys.js";
import { createTestDb, type TestDb } from "../helpers/db.js";

const now = new Date("2026-11-20T12:00:00Z");
let h: TestDb;
beforeAll(async () => {
  h = await createTestDb();
});
afterAll(() => h?.close());

describe("the JWKS after a rotation", () => {
  it("keeps a key retired within the grace period, so verdicts it signed in their last 5 minutes still verify", async () => {
    const retire = async (kid: string, ago: number) =>
      h.db
        .insertInto("signing_keys")
        .values({
          kid,
          alg: "EdDSA-old",
          public_jwk: JSON.stringify({ kty: "OKP", crv: "Ed25519", x: kid, kid }),
          private_jwk: "{}",
          retired_at: new Date(now.getTime() - ago),
        })
        .execute();
    await retire("recent", RETIRED_KEY_GRACE_MS - 60_000);
    await retire("long-gone", RETIRED_KEY_GRACE_MS + 60_000);
    const active = await activeSigningKey(h.db);
    const kids = (await publicJwks(h.db, now)).keys.map((k) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([active.kid, "recent"]));
    expect(kids).not.toContain("long-gone");
  });
});
