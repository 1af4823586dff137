/**
 * @module
 * bench/rescue: questions nobody picked up, on the real multi-party chat of irc-replies. Each annotated message is
 * decided as the Worker decides it for a bot that is in the channel but was not in the talk; a person's question
 * the decider leaves to nobody (lib/rescue/questions.ts isOpenQuestion) is a rescue candidate. When
 * RESCUE_AFTER_MINUTES have passed, the rescue job's own code (answeredAfter) reads only what was said up to then
 * and says whether anyone answered; the gold links say whether anyone truly did (a reply by someone else within
 * the wait). A rescue is right when nobody truly answered. Prints precision and recall of the rescues for three
 * eagerness values (the default, 50, is the one the target is for); the last line is one JSON object
 * `{questions, unanswered_gold, rescued, precision, recall}` at the default.
 *   node bench/rescue/run.ts [--split dev|train | --file PATH] [--json]
 */
import { decideResponse } from "../../lib/decide/decide.ts";
import { answeredAfter, isOpenQuestion } from "../../lib/rescue/questions.ts";
import type { BotIdentity, ConversationState, StoredMessage } from "../../lib/message.ts";
import { defineCommand, parseCommandLine, requireFile } from "../../dev/cli.ts";
import { type ChatLine, readLogs } from "../decision/corpus.ts";
import { BENCH_OPTIONS, FIRST_ANNOTATED_LINE, LOOKBACK_LINES } from "../decision/pairs.ts";
import { dataPath, missingSplitHint } from "../decision/paths.ts";

const command = defineCommand({
  name: "npm run bench:rescue",
  summary:
    "Replays irc-replies logs and prints the precision and recall of the bot stepping in on questions nobody answered.",
  options: {
    split: { type: "string", valueName: "name", description: "dev (default; ships with bench/decision) or train" },
    file: { type: "string", valueName: "path", description: "any log file in the irc-replies format instead" },
    json: {
      type: "boolean",
      default: false,
      description: "end with one JSON line of the figures at the default eagerness",
    },
  },
});
const values = parseCommandLine(command);
const wanted = values.file ?? dataPath(values.split ?? "dev");
const file = requireFile(command.name, wanted, missingSplitHint(wanted));

/** RESCUE_AFTER_MINUTES's default (lib/config.ts). */
const WAIT_MS = 10 * 60_000;
const EAGERNESS = [25, 50, 100] as const;
const DEFAULT_EAGERNESS = 50;
/** Context the model reads before the question, as the decider's view. */
const BEFORE = 20;
/** A bot in the channel that took no part: nobody in the logs is called this. */
const BOT: BotIdentity = { userId: "parley-bench-bot", name: "parleybenchbot", aliases: [] };

const stored = (line: ChatLine): StoredMessage => ({
  id: String(line.i),
  role: "user",
  authorId: line.author,
  authorName: line.author,
  text: line.text,
  ts: line.ts,
});

let questions = 0;
let unansweredGold = 0;
const tallies = new Map<number, { rescued: number; right: number }>(
  EAGERNESS.map((e) => [e, { rescued: 0, right: 0 }]),
);

for await (const log of readLogs(file)) {
  const children = new Map<number, number[]>();
  for (const [child, parents] of log.parents)
    for (const p of parents) children.set(p, [...(children.get(p) ?? []), child]);
  const byI = new Map(log.lines.map((l) => [l.i, l]));
  for (let k = 0; k < log.lines.length; k++) {
    const m = log.lines[k]!;
    if (m.i < FIRST_ANNOTATED_LINE) continue;
    const recent = log.lines.slice(Math.max(0, k - LOOKBACK_LINES), k + 1).map(stored);
    const state: ConversationState = {
      active: true,
      id: log.source,
      startedAt: recent[0]!.ts,
      lastActivityAt: m.ts,
      lastBotReplyTo: [],
      answeredThrough: 0,
      recent,
    };
    const msg = {
      author: { id: m.author, name: m.author, isBot: false },
      text: m.text,
      ts: m.ts,
      addressing: "none" as const,
      mentions: [],
    };
    if (!isOpenQuestion(msg, decideResponse(state, msg, BOT, BENCH_OPTIONS))) continue;
    questions++;
    const answered = (children.get(m.i) ?? []).some((c) => {
      const child = byI.get(c);
      return child !== undefined && child.author !== m.author && child.ts - m.ts <= WAIT_MS;
    });
    if (!answered) unansweredGold++;
    let end = k + 1;
    while (end < log.lines.length && log.lines[end]!.ts - m.ts <= WAIT_MS) end++;
    const talk = {
      before: log.lines.slice(Math.max(0, k - BEFORE), k).map(stored),
      question: stored(m),
      later: log.lines.slice(k + 1, end).map(stored),
      threadReplies: [],
    };
    for (const eagerness of EAGERNESS) {
      if (answeredAfter(talk, BOT, eagerness)) continue;
      const tally = tallies.get(eagerness)!;
      tally.rescued++;
      if (!answered) tally.right++;
    }
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
console.log(`file: ${file}`);
console.log(
  `questions addressed to nobody: ${questions}; nobody answered within ${WAIT_MS / 60_000} minutes (gold): ${unansweredGold}`,
);
console.log(`${"eagerness".padEnd(10)} ${"rescued".padStart(8)} ${"precision".padStart(9)} ${"recall".padStart(7)}`);
const rows = EAGERNESS.map((eagerness) => {
  const t = tallies.get(eagerness)!;
  const row = {
    eagerness,
    rescued: t.rescued,
    precision: round(t.right / Math.max(1, t.rescued)),
    recall: round(t.right / Math.max(1, unansweredGold)),
  };
  console.log(
    `${String(eagerness).padEnd(10)} ${String(row.rescued).padStart(8)} ${row.precision.toFixed(3).padStart(9)} ${row.recall.toFixed(3).padStart(7)}`,
  );
  return row;
});
const at = rows.find((r) => r.eagerness === DEFAULT_EAGERNESS)!;
if (values.json)
  console.log(
    JSON.stringify({
      questions,
      unanswered_gold: unansweredGold,
      rescued: at.rescued,
      precision: at.precision,
      recall: at.recall,
    }),
  );
