import { pino } from "pino";
import { loadConfig, type Config } from "../../config.js";
import { buildDataset } from "../../services/dataset/build-dataset.js";
import { line, type CliIo } from "./cli-io.js";

export const DATASET_USAGE = `  dataset build
      Build the public dataset now (per-endpoint aggregates as CSV and JSON Lines, README,
      CC-BY-4.0 LICENSE) into DATA_DIR/dataset/<UTC date>/ and list it at /dataset.`;

/**
 * \`npm run lookout -- dataset build\`: the on-demand build of the weekly snapshot. Takes the
 * service's configuration (DATA_DIR, PUBLIC_BASE_URL) unless a test passes its own.
 */
export async function runDatasetCommand(argv: readonly string[], io: CliIo, config: Pick<Config, "dataDir" | "publicBaseUrl"> = loadConfig()): Promise<number> {
  if (argv.length !== 1 || argv[0] !== "build") {
    line(io.stderr, `lookout: ${argv.length === 0 ? "dataset needs a subcommand: build" : `unknown dataset arguments '${argv.join(" ")}'`}\n\nusage: npm run lookout -- dataset build\n\n${DATASET_USAGE}`);
    return 2;
  }
  const db = await io.openDb();
  try {
    const build = await buildDataset({ db: db.db, clock: io.clock, log: pino({ level: "silent" }), dataDir: config.dataDir, publicBaseUrl: config.publicBaseUrl });
    line(io.stdout, `dataset ${build.period} (id ${build.id}): ${build.rows} endpoint(s) in ${build.dir}`);
    for (const [name, f] of Object.entries(build.files)) line(io.stdout, `  ${name}  ${f.bytes} bytes  sha256 ${f.sha256}`);
    return 0;
  } finally {
    await db.close();
  }
}
