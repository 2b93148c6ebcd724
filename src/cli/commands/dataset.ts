import { loadConfig } from "../../config.js";
import type { ServicesConfig } from "../../services/index.js";
import { line, type CliIo } from "./cli-io.js";
import { withServices } from "./cli-services.js";

export const DATASET_USAGE = `  dataset build
      Build the public dataset now (per-endpoint aggregates as CSV and JSON Lines, README,
      CC-BY-4.0 LICENSE) into DATA_DIR/dataset/<UTC date>/ and list it at /dataset.`;

/**
 * \`npm run lookout -- dataset build\`: the on-demand build of the weekly snapshot. Takes the
 * service's configuration (DATA_DIR, PUBLIC_BASE_URL) unless a test passes its own.
 */
export async function runDatasetCommand(argv: readonly string[], io: CliIo, config: ServicesConfig = loadConfig()): Promise<number> {
  if (argv.length !== 1 || argv[0] !== "build") {
    line(
      io.stderr,
      `lookout: ${argv.length === 0 ? "dataset needs a subcommand: build" : `unknown dataset arguments '${argv.join(" ")}'`}\n\nusage: npm run lookout -- dataset build\n\n${DATASET_USAGE}`,
    );
    return 2;
  }
  const build = await withServices(io, (services) => services.dataset.build(), config);
  line(io.stdout, `dataset ${build.period} (id ${build.id}): ${build.rows} endpoint(s) in ${build.dir}`);
  for (const [name, f] of Object.entries(build.files)) line(io.stdout, `  ${name}  ${f.bytes} bytes  sha256 ${f.sha256}`);
  return 0;
}
