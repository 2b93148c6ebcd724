import { loadConfig } from "../../config.js";
import { NotFound } from "../../services/errors.js";
import type { ServicesConfig } from "../../services/index.js";
import { line, type CliIo } from "./cli-io.js";
import { withServices } from "./cli-services.js";

export const KEYS_USAGE = `  keys list
      The signing keys: kid, active / retired / revoked, sealed or clear.
  keys rotate
      A new active key; the old one stays in the JWKS for the grace, so outstanding verdicts,
      snapshots and certificates still verify. Running services sign with it within a minute.
  keys revoke <kid>
      The key leaves the JWKS at once and never signs again (docs/verdicts.md, "Keys").`;

const usage = (problem: string) => `lookout: ${problem}\n\nusage: npm run lookout -- keys list | rotate | revoke <kid>\n\n${KEYS_USAGE}`;

/** `npm run lookout -- keys ...` (decision 0031); the sealing key is the service's SIGNING_SECRET_KEY. */
export async function runKeysCommand(argv: readonly string[], io: CliIo, config: ServicesConfig = loadConfig()): Promise<number> {
  const [action, ...rest] = argv;
  const arity = { list: 0, rotate: 0, revoke: 1 }[action as string];
  if (arity === undefined || rest.length !== arity) {
    const problem =
      action === undefined
        ? "keys needs a subcommand: list, rotate or revoke"
        : arity === undefined
          ? `unknown keys subcommand '${action}'`
          : `keys ${action} takes ${arity === 1 ? "one kid" : "no arguments"}`;
    line(io.stderr, usage(problem));
    return 2;
  }
  try {
    return await withServices(
      io,
      async ({ certificates: { keys } }) => {
        if (action === "rotate") {
          const r = await keys.rotate();
          line(
            io.stdout,
            `active key ${r.kid}${r.retired ? `; retired ${r.retired} (in the JWKS for the grace, then while a certificate it signed is valid)` : ""}`,
          );
        } else if (action === "revoke") {
          const r = await keys.revoke(rest[0]!);
          if (r.alreadyRevoked) line(io.stdout, `key ${r.kid} was already revoked; active key ${r.active}`);
          else line(io.stdout, `revoked ${r.kid}: out of the JWKS now; active key ${r.active}; ${r.resigned} valid certificate(s) signed again with it`);
        } else {
          for (const k of await keys.list()) {
            const until = k.publishedUntil ? ` (in the JWKS until at least ${k.publishedUntil.toISOString()})` : "";
            line(
              io.stdout,
              `${k.kid}  ${k.state}${until}  ${k.state === "revoked" ? "erased" : k.sealed ? "sealed" : "clear"}  created ${k.createdAt.toISOString()}`,
            );
          }
        }
        return 0;
      },
      config,
    );
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    line(io.stderr, `lookout: ${err.message}`);
    return 1;
  }
}
