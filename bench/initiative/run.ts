/**
 * @module
 * bench/initiative: how often a place with `/parley initiative on` would hear the bot unprompted, on the real
 * multi-party chat of irc-replies. Each (message, player) pair of bench/decision's task is the bot (the player) in
 * a discussion it is part of, seeing the channel as it stood; the message gets an unprompted answer when the
 * Worker's own decideResponse leaves it to nobody and takeInitiative takes it at the eagerness, within
 * INITIATIVE_MAX_PER_HOUR per player and log (an hour's fixed window of the log's clock). Prints, per eagerness,
 * unprompted answers per 1,000 messages the bot saw, and how many of them answered a message that was in truth a
 * reply to the player (the gold links): the rest are the bot joining in where nobody spoke to it. The model's
 * [SKIP] (which keeps some of these quiet in production) and "never twice in a row" (a matter of job timing) are
 * not replayed: the rates are upper bounds.
 *   node bench/initiative/run.ts [--split dev|train | --file PATH] [--json]
 */
import { decideResponse } from "../../lib/decide/decide.ts";
import { initiativeThreshold, takeInitiative } from "../../lib/decide/initiative.ts";
import { defineCommand, parseCommandLine, requireFile } from "../../dev/cli.ts";
import { readLogs } from "../decision/corpus.ts";
import { BENCH_OPTIONS, decisionPairs } from "../decision/pairs.ts";
import { dataPath, missingSplitHint } from "../decision/paths.ts";

const command = defineCommand({
  name: "npm run bench:initiative",
  summary:
    "Replays irc-replies logs and prints unprompted answers per 1,000 messages at eagerness 25, 50 and 100, within the hourly cap.",
  options: {
    split: { type: "string", valueName: "name", description: "dev (default; ships with bench/decision) or train" },
    file: { type: "string", valueName: "path", description: "any log file in the irc-replies format instead" },
    json: { type: "boolean", default: false, description: "end with one JSON line of the figures" },
  },
});
const values = parseCommandLine(command);
const wanted = values.file ?? dataPath(values.split ?? "dev");
const file = requireFile(command.name, wanted, missingSplitHint(wanted));

const EAGERNESS = [25, 50, 100] as const;
/** INITIATIVE_MAX_PER_HOUR's default (lib/config.ts). */
const MAX_PER_HOUR = 4;
const HOUR_MS = 3_600_000;
const WINDOW_MS = BENCH_OPTIONS.followupWindowSeconds * 1000;

interface Rate {
  unprompted: number;
  /** Of them, on a message that was in truth a reply to the player. */
  toBot: number;
  /** Taken by takeInitiative but over the hourly cap. */
  capped: number;
}
const rates = new Map<number, Rate>(EAGERNESS.map((e) => [e, { unprompted: 0, toBot: 0, capped: 0 }]));
const used = new Map<string, number>();
let messages = 0;

for await (const log of readLogs(file)) {
  for (const pair of decisionPairs(log)) {
    messages++;
    const decision = decideResponse(pair.state, pair.msg, pair.bot, BENCH_OPTIONS);
    for (const eagerness of EAGERNESS) {
      if (!takeInitiative(decision, pair.state, { initiative: true, eagerness }, WINDOW_MS)) continue;
      const rate = rates.get(eagerness)!;
      const window = `${eagerness}|${pair.source}|${pair.player}|${Math.floor(pair.msg.ts / HOUR_MS)}`;
      const count = (used.get(window) ?? 0) + 1;
      used.set(window, count);
      if (count > MAX_PER_HOUR) {
        rate.capped++;
        continue;
      }
      rate.unprompted++;
      if (pair.truth) rate.toBot++;
    }
  }
}

const per1000 = (n: number) => Math.round((n / Math.max(1, messages)) * 10_000) / 10;
const share = (part: number, whole: number) => Math.round((part / Math.max(1, whole)) * 1000) / 1000;
console.log(`file: ${file}`);
console.log(`messages seen by the bot while part of the discussion (message, player pairs): ${messages}`);
console.log(
  `${"eagerness".padEnd(10)} ${"threshold".padStart(9)} ${"per 1,000".padStart(9)} ${"to the bot".padStart(10)} ${"over cap".padStart(8)}`,
);
const figures = EAGERNESS.map((eagerness) => {
  const r = rates.get(eagerness)!;
  const row = {
    eagerness,
    threshold: Math.round(initiativeThreshold(eagerness) * 1e4) / 1e4,
    per_1000: per1000(r.unprompted),
    to_bot: share(r.toBot, r.unprompted),
    capped: r.capped,
  };
  console.log(
    `${String(eagerness).padEnd(10)} ${row.threshold.toFixed(4).padStart(9)} ${row.per_1000.toFixed(1).padStart(9)} ${row.to_bot.toFixed(3).padStart(10)} ${String(r.capped).padStart(8)}`,
  );
  return row;
});
if (values.json) console.log(JSON.stringify({ messages, max_per_hour: MAX_PER_HOUR, rates: figures }));
