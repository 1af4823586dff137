/**
 * @module
 * Turns a split of the irc-disentanglement corpus (its `data/<split>/` folder of `<log>.raw.txt` and
 * `<log>.annotation.txt` pairs) into the JSONL file the benches read (./convert-log.ts), logs in name order.
 *   node bench/decision/convert.ts --dir <clone>/data/train [--out PATH]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CommandError, defineCommand, parseCommandLine, requireFile, runCommand } from "../../dev/cli.ts";
import { convertLog } from "./convert-log.ts";
import { outsidePath } from "./paths.ts";

const command = defineCommand({
  name: "node bench/decision/convert.ts",
  summary:
    "Joins the raw logs and reply annotations of one split of https://github.com/jkkummerfeld/irc-disentanglement " +
    "(CC-BY-4.0) into the JSONL file the decision and recall benches read.",
  options: {
    dir: { type: "string", valueName: "folder", description: "the split's folder in a clone, e.g. <clone>/data/train" },
    out: {
      type: "string",
      valueName: "path",
      description:
        "where to write it (default: shared/data/irc-replies/<split>.jsonl beside the checkout, where the benches look)",
    },
  },
});

const ANNOTATION = ".annotation.txt";

await runCommand(command.name, async () => {
  const values = parseCommandLine(command);
  if (!values.dir) throw new CommandError("--dir is missing");
  const dir = values.dir;
  const split = basename(dir);
  const out = values.out ?? outsidePath(split);
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith(ANNOTATION))
    .map((name) => name.slice(0, -ANNOTATION.length))
    .sort();
  if (sources.length === 0) throw new CommandError(`${dir} holds no ${ANNOTATION} files`);
  const lines = sources.map((source) => {
    const raw = readFileSync(
      requireFile(command.name, join(dir, `${source}.raw.txt`), "every annotation needs its raw log"),
      "utf8",
    );
    return convertLog(source, split, raw, readFileSync(join(dir, `${source}${ANNOTATION}`), "utf8"));
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${lines.join("\n")}\n`);
  console.log(`${sources.length} logs of ${split} written to ${out}`);
});
