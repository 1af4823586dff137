/**
 * @module
 * One Gateway dispatch → what it means for the bot: a message for the pipeline (MESSAGE_CREATE; a 👎 on an answer), a
 * person's ✅ or ❌ on the bot's question (a confirm tool's: lib/approvals/capability.ts),
 * the bot's managed role in a guild (GUILD_CREATE, GUILD_ROLE_CREATE/UPDATE), a guild the bot was removed from
 * (GUILD_DELETE without `unavailable`), or the reason it needs no work. Pure: functions/discord-gateway-feed.ts acts on
 * the answer
 * and the conformance corpus (test/fixtures/platforms/discord) reads every dispatch through it.
 */
import type { InboundMessage } from "../../../message.ts";
import type { ApprovalParsed } from "../../../approvals/capability.ts";
import { guildCreated, guildDeleted, roleChanged, type GuildChange } from "./guild-lifecycle.ts";
import { parseGatewayMessage, type GatewayBot } from "./message.ts";
import { parseGatewayReaction } from "./reaction.ts";

export type GatewayDispatchRead = { kind: "message"; message: InboundMessage } | ApprovalParsed | GuildChange;

/** `now`: when it arrived (a reaction carries no time of its own). */
export function readGatewayDispatch(event: string, data: unknown, bot: GatewayBot, now: number): GatewayDispatchRead {
  switch (event) {
    case "MESSAGE_CREATE":
      return parseGatewayMessage(data, bot);
    case "MESSAGE_REACTION_ADD":
      return parseGatewayReaction(data, bot.userId, now);
    case "GUILD_CREATE":
      return guildCreated(data, bot.userId);
    case "GUILD_ROLE_CREATE":
    case "GUILD_ROLE_UPDATE":
      return roleChanged(data, bot.userId);
    case "GUILD_DELETE":
      return guildDeleted(data);
    default:
      return { kind: "ignored", reason: `event:${event}` };
  }
}
