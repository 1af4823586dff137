/**
 * @module
 * Where things live for the bench: the irc-replies splits and the weights module the training writes. The dev split
 * ships with the bench, gzipped (./data/, CC-BY-4.0: see ./README.md), so a fresh clone measures the decider; the
 * train split (27 MB, only for refitting the weights) stays outside, in shared/data/irc-replies beside the checkout,
 * where ./convert.ts writes it.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

export const WEIGHTS_PATH = join(HERE, "../../lib/decide/weights.ts");

const SHIPPED_SPLITS: Readonly<Record<string, string>> = { dev: join(HERE, "data/dev.jsonl.gz") };

export function dataPath(split: string): string {
  return SHIPPED_SPLITS[split] ?? outsidePath(split);
}

/** Where a split that does not ship is read from (and written by ./convert.ts). */
export function outsidePath(split: string): string {
  return join(HERE, "../../../shared/data/irc-replies", `${split}.jsonl`);
}

/** What to do when a split is not there: where the corpus comes from, and how to turn it into the bench's format. */
export function missingSplitHint(path: string): string {
  return (
    "only the dev split ships with Parley: clone https://github.com/jkkummerfeld/irc-disentanglement (CC-BY-4.0) and run " +
    `\`node bench/decision/convert.ts --dir <clone>/data/train --out ${path}\`, or pass --file PATH`
  );
}
