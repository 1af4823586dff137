/**
 * @module
 * `npm run bench:digests [-- --days N]`: a simulated month of digests. Picks the month's talk from the irc-replies
 * dev split that ships with bench/decision (one log's lines per place and day, a quarter of the days silent, seeded),
 * writes it beside the bench (`traffic.json`, not committed), then runs ./month.bench.ts in workerd on the test
 * stack, where the QStash stand-in's clock and the Worker's move through the month together (./month.bench.ts says
 * what it drives and counts). Prints its figures and a last JSON line.
 */
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineCommand, parseBoundedOptions, runCommand } from "../../dev/cli.ts";
import { seededRandom } from "../../dev/faults/seeded-random.ts";
import { readLogs } from "../decision/corpus.ts";
import { dataPath } from "../decision/paths.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "../..");
const PLACES = 10;
const command = defineCommand({
  name: "npm run bench:digests",
  summary:
    "A simulated month of daily, weekly and personal digests on the QStash stand-in's controllable clock, with redeliveries and a Worker outage: prints slots due, digests posted, duplicates, late ones and model tokens.",
  options: {
    days: { type: "string", default: "30", valueName: "n", description: "days simulated, 1-60 (30)" },
  },
});
const { days: DAYS } = parseBoundedOptions(command, z.object({ days: z.coerce.number().int().min(1).max(60) }));
const SILENT_SHARE = 0.25;
const MAX_LINES = 12;
const MAX_CHARS = 300;

await runCommand("bench:digests", async () => {
  const random = seededRandom(43);
  const chunks: { author: string; text: string }[][] = [];
  for await (const log of readLogs(dataPath("dev"))) {
    const lines = log.lines
      .filter((l) => l.text.trim())
      .map((l) => ({ author: l.author, text: l.text.slice(0, MAX_CHARS) }));
    for (let at = 0; at + MAX_LINES <= lines.length && chunks.length < PLACES * DAYS; at += MAX_LINES * 4)
      chunks.push(lines.slice(at, at + 3 + Math.floor(random() * (MAX_LINES - 3))));
    if (chunks.length >= PLACES * DAYS) break;
  }
  // talk[day][place]: what that place says that day, or nothing.
  const talk = Array.from({ length: DAYS }, (_d, day) =>
    Array.from({ length: PLACES }, (_p, place) =>
      random() < SILENT_SHARE ? [] : (chunks[day * PLACES + place] ?? []),
    ),
  );
  await writeFile(join(HERE, "traffic.json"), JSON.stringify({ days: DAYS, places: PLACES, talk }));
  const run = spawnSync("npx", ["vitest", "run", "--project", "bench-digests", "--silent=false", "--reporter=dot"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, PARLEY_BENCH: "digests" },
  });
  if (run.status !== 0) throw new Error(`the month's run failed (exit ${run.status})`);
});
