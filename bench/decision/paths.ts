/**
 * @module
 * Where things live for the bench: the irc-replies splits (shared/data/irc-replies, beside this checkout)
 * and the weights module the training writes.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

export const WEIGHTS_PATH = join(HERE, "../../lib/decide/weights.ts");

export function dataPath(split: string): string {
  return join(HERE, "../../../shared/data/irc-replies", `${split}.jsonl`);
}
