/**
 * @module
 * The bot-centred scenarios of bot-scenarios.jsonl, written by hand: multi-person chats around a bot called
 * Parley, each person's message marked with whether the bot should answer it. Each marked message becomes one
 * decision case, decided over the conversation as the store would hand it over at that moment.
 * A line: {"id", "turns": [[who, text, expect?, options?], ...]}; who is "bot" for the bot's own answers, expect
 * "yes" | "no" marks a case ("react" marks a reaction, not a message), options: gap (seconds after the previous
 * turn, default 12; the bot answers 6 s after), mentions (people or "bot" the platform mentions), replyTo (index of
 * the turn a platform reply answers), react ("thumbsdown": a 👎 on the bot's latest answer).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { DecidableMessage } from "../../lib/decide/reasons.ts";
import type { BotIdentity, ConversationState, StoredMessage } from "../../lib/message.ts";

const optionsSchema = z.object({
  gap: z.number().optional(),
  mentions: z.array(z.string()).optional(),
  replyTo: z.number().int().optional(),
  react: z.literal("thumbsdown").optional(),
});
const turnSchema = z.union([
  z.tuple([z.string(), z.string()]),
  z.tuple([z.string(), z.string(), z.enum(["yes", "no", "react"])]),
  z.tuple([z.string(), z.string(), z.enum(["yes", "no", "react"]), optionsSchema]),
]);
const scenarioSchema = z.object({ id: z.string(), turns: z.array(turnSchema) });

const SCENARIO_BOT: BotIdentity = { userId: "UPARLEY", name: "Parley", aliases: [] };
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const DEFAULT_GAP_S = 12;
const BOT_GAP_S = 6;

export interface ScenarioCase {
  scenario: string;
  turn: number;
  expect: boolean;
  state: ConversationState;
  msg: DecidableMessage;
  bot: BotIdentity;
}

const idOf = (who: string): string => (who === "bot" ? SCENARIO_BOT.userId : `U${who.toUpperCase()}`);
const nameOf = (who: string): string => (who === "bot" ? SCENARIO_BOT.name : who[0]!.toUpperCase() + who.slice(1));

export function scenarioCases(path: string): ScenarioCase[] {
  const cases: ScenarioCase[] = [];
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0);
  for (const line of lines) {
    const scenario = scenarioSchema.parse(JSON.parse(line));
    const recent: StoredMessage[] = [];
    let ts = T0;
    let lastBotReplyAt: number | undefined;
    let lastBotReplyTo: string[] = [];
    let answering: string | null = null;
    scenario.turns.forEach((turn, k) => {
      const [who, text, mark, options = {}] = turn;
      ts += 1000 * (options.gap ?? (who === "bot" ? BOT_GAP_S : DEFAULT_GAP_S));
      const stored: StoredMessage = {
        id: `${scenario.id}-${k}`,
        role: who === "bot" ? "assistant" : "user",
        authorId: idOf(who),
        authorName: nameOf(who),
        text,
        ts,
      };
      if (options.mentions) stored.mentions = options.mentions.map(idOf);
      if (options.replyTo !== undefined) stored.replyToAuthorId = idOf(scenario.turns[options.replyTo]![0]);
      if (options.react) Object.assign(stored, { feedback: "not_you", noReply: true });
      if (who === "bot") {
        lastBotReplyAt = ts;
        lastBotReplyTo = answering === null ? [] : [answering];
        recent.push(stored);
        return;
      }
      recent.push(stored);
      if (mark === "yes") answering = stored.authorId;
      if (mark !== "yes" && mark !== "no") return;
      cases.push({
        scenario: scenario.id,
        turn: k,
        expect: mark === "yes",
        state: {
          active: true,
          id: scenario.id,
          startedAt: T0,
          lastActivityAt: ts,
          lastBotReplyAt,
          lastBotReplyTo,
          answeredThrough: lastBotReplyAt ?? 0,
          recent: [...recent],
        },
        msg: {
          author: { id: stored.authorId, name: stored.authorName, isBot: false },
          text,
          ts,
          addressing: "none",
          mentions: stored.mentions ?? [],
          ...(stored.replyToAuthorId ? { replyToAuthorId: stored.replyToAuthorId } : {}),
        },
        bot: SCENARIO_BOT,
      });
    });
  }
  return cases;
}
