/**
 * @module
 * `npm run lint`: Biome (format and lint rules, biome.json) over the whole tree, then knip (files, exports and
 * dependencies nothing uses, knip.json). Both run even when the first fails, so one run shows everything to mend.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { defineCommand, parseCommandLine } from "./cli.ts";

const command = defineCommand({
  name: "npm run lint",
  summary:
    "Checks the code's shape with Biome (formatting at 120 columns and the lint rules of biome.json) and looks for " +
    "unused files, exports and dependencies with knip (knip.json); exits 1 when either finds something.",
  options: {
    write: { type: "boolean", description: "apply Biome's safe fixes and formatting before checking" },
  },
});

const options = parseCommandLine(command);
const bin = (name: string) => resolve(import.meta.dirname, "../node_modules/.bin", name);
const biome = spawnSync(bin("biome"), ["check", ...(options.write ? ["--write"] : []), "."], { stdio: "inherit" });
const knip = spawnSync(bin("knip"), ["--no-progress"], { stdio: "inherit" });
process.exitCode = biome.status === 0 && knip.status === 0 ? 0 : 1;
