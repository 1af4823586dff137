/**
 * @module
 * bench/recall: how well recall finds earlier conversations, on real multi-party chat (irc-replies). Starts its own
 * redis-server and Upstash Vector stand-in (hybrid, local models) on free ports, indexes every thread's first
 * messages as passages through Parley's recall client, asks with later messages of the threads, and prints
 * recall@1, recall@5 and MRR for BM25, the local dense embedder and hybrid fusion side by side, query latency,
 * Vector requests per answer and the prompt tokens recall adds. Last line: one JSON object.
 *   node bench/recall/run.ts [--file PATH] [--json] [--help]
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import * as z from "zod";
import { errorMessage } from "../../lib/log.ts";
import { dataPath } from "../decision/paths.ts";
import { runRecallBench } from "./bench.ts";

const USAGE = `npm run bench:recall -- [--file PATH] [--json]

  --file PATH   a log in the irc-replies format (default: the dev split, which ships with bench/decision)
  --json        end with one JSON line of the chosen configuration's figures
  --help        this text`;

function main(): Promise<void> | void {
  const { values } = parseArgs({
    options: { file: { type: "string" }, json: { type: "boolean", default: false }, help: { type: "boolean", default: false } },
  });
  if (values.help) return console.log(USAGE);
  const file = values.file ?? dataPath("dev");
  if (!existsSync(file)) throw new Error(`no data file at ${file}: pass --file PATH to a log in the irc-replies format`);
  return runRecallBench(file, values.json);
}

/** One line, whatever failed: a log line of the wrong shape names the field. */
function oneLine(err: unknown): string {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    return `a log is not in the irc-replies format (${issue?.path.join(".") || "log"}: ${issue?.message ?? "malformed"})`;
  }
  return errorMessage(err).replace(/\s*\n\s*/g, " ");
}

try {
  await main();
} catch (err) {
  console.error(`bench:recall: ${oneLine(err)}`);
  process.exit(1);
}
