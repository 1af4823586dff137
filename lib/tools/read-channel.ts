/**
 * @module
 * `read_channel`: more of the answered place's history than the prompt holds, read from its platform (the history
 * capability that starts a conversation, lib/platforms/history.ts) on the model's request: the last `messages` of
 * the last `hours` before the message being answered, both capped. The place is always the job's own (ToolContext
 * `readPlace` is bound to it: no argument names a channel), the read spends the platform's call budget like every
 * other call, and a person who asked to be forgotten is left out as backfill leaves them out (their forget mark
 * covers what they wrote until they asked). A platform that refuses the read (a missing scope or permission) gives
 * the model a refusal that says so; one with no history to read (SMS) says that.
 */
import { using } from "../errors.ts";
import { capMessageText } from "../limits/message-length.ts";
import * as z from "../zod.ts";
import { defineTool, ToolRefusal, type PlaceLine } from "./tool.ts";

const MAX_MESSAGES = 100;
const MAX_HOURS = 168;
const MS_PER_HOUR = 3_600_000;
/** A message's share of the result: one long paste must not crowd out the rest. */
const MAX_LINE_CHARS = 1_000;
/** Under the round's cut (lib/tools/run.ts): the newest messages are the ones kept when they do not all fit. */
const MAX_RESULT_CHARS = 7_500;

export const readChannelTool = defineTool({
  name: "read_channel",
  description:
    `Read earlier messages of this channel or thread (only this one), oldest first: the last ` +
    `\`messages\` (at most ${MAX_MESSAGES}, default 30) written in the last \`hours\` (at most ${MAX_HOURS}, ` +
    `default 24) before the message you are answering.`,
  args: z.object({
    messages: z.optional(z.number().check(z.int(), z.gte(1))),
    hours: z.optional(z.number().check(z.gte(0.1))),
  }),
  async run(args, ctx) {
    if (!ctx.readPlace) throw new ToolRefusal("this channel's history cannot be read here");
    const limit = Math.min(args.messages ?? 30, MAX_MESSAGES);
    const hours = Math.min(args.hours ?? 24, MAX_HOURS);
    const page = await ctx.readPlace({ sinceMs: hours * MS_PER_HOUR, limit });
    if (page === undefined) throw new ToolRefusal("this platform keeps no channel history to read");
    if ("refused" in page)
      throw new ToolRefusal(`the platform refused to read this channel's history (the bot lacks ${page.refused})`);
    const { forgotten, settings } = ctx.services;
    const kept = await using("redis", () => forgotten.withoutForgotten(ctx.place, page.messages));
    if (kept.length === 0) return "no earlier messages in that window";
    return newestThatFit(kept.map((m) => line(m, settings.MAX_MESSAGE_CHARS)));
  },
});

/** `2026-11-14 15:04 Alice (U0ALICE): text`, the bots' marked. */
function line(m: PlaceLine, maxMessageChars: number): string {
  const at = new Date(m.ts).toISOString().slice(0, 16).replace("T", " ");
  const who = `${m.author.name} (${m.author.isBot ? "bot " : ""}${m.author.id})`;
  return `${at} ${who}: ${capMessageText(m.text, Math.min(maxMessageChars, MAX_LINE_CHARS))}`;
}

function newestThatFit(lines: readonly string[]): string {
  const kept: string[] = [];
  let chars = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    chars += lines[i]!.length + 1;
    if (chars > MAX_RESULT_CHARS) break;
    kept.unshift(lines[i]!);
  }
  const left = lines.length - kept.length;
  return [...(left > 0 ? [`(${left} older messages left out)`] : []), ...kept].join("\n");
}
