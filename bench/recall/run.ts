/**
 * @module
 * bench/recall: how well recall finds earlier conversations, on real multi-party chat (irc-replies). Starts its own
 * redis-server and Upstash Vector stand-in (hybrid, local models) on free ports, indexes every thread's first
 * messages as passages through Parley's recall client, asks with later messages of the threads, and prints
 * recall@1, recall@5 and MRR for BM25, the local dense embedder and hybrid fusion side by side, query latency,
 * Vector requests per answer and the prompt tokens recall adds. Last line: one JSON object.
 *   node bench/recall/run.ts [--file PATH] [--json] [--help]
 */
import * as z from "zod";
import { errorMessage } from "../../lib/log.ts";
import { defineCommand, parseCommandLine, requireFile } from "../../dev/cli.ts";
import { dataPath, missingSplitHint } from "../decision/paths.ts";
import { runRecallBench } from "./bench.ts";

const command = defineCommand({
  name: "npm run bench:recall",
  summary:
    "Indexes the first messages of every thread of real multi-party chat as passages through Parley's recall client " +
    "(own redis-server and Vector stand-in on free ports), asks with later messages of the threads, and prints " +
    "recall@1, recall@5 and MRR for BM25, the local dense embedder and hybrid fusion, query latency, Vector requests " +
    "per answer and the prompt tokens recall adds.",
  options: {
    file: {
      type: "string",
      valueName: "path",
      description: "a log in the irc-replies format (default: the dev split, which ships with bench/decision)",
    },
    json: {
      type: "boolean",
      default: false,
      description: "end with one JSON line of the chosen configuration's figures",
    },
  },
});

function main(): Promise<void> {
  const values = parseCommandLine(command);
  const wanted = values.file ?? dataPath("dev");
  return runRecallBench(requireFile(command.name, wanted, missingSplitHint(wanted)), values.json);
}

/** One line, whatever failed: a log line of the wrong shape names the field. */
function oneLine(err: unknown): string {
  if (err instanceof z.core.$ZodError) {
    const issue = err.issues[0];
    return `a log is not in the irc-replies format (${issue?.path.join(".") || "log"}: ${issue?.message ?? "malformed"})`;
  }
  return errorMessage(err).replace(/\s*\n\s*/g, " ");
}

try {
  await main();
} catch (err) {
  console.error(`${command.name}: ${oneLine(err)}`);
  process.exit(1);
}
