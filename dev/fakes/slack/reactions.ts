/**
 * @module
 * reactions.add and reactions.remove on a message, by the bot, with Slack's errors (`already_reacted`,
 * `no_reaction`, `no_item_specified`, `invalid_name`, `message_not_found`).
 */
import { CHANNEL_SHAPE, refusal, type MethodContext, type SlackAnswer } from "./context.ts";
import { textParam } from "./request.ts";

/** An emoji name without colons, e.g. `eyes` or `thumbsup::skin-tone-2`'s base `thumbsup`. */
const EMOJI_NAME = /^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/;

function target({ params }: MethodContext): { channel: string; timestamp: string; name: string } | string {
  const channel = textParam(params, "channel");
  const timestamp = textParam(params, "timestamp");
  const name = textParam(params, "name") ?? "";
  if (!channel || !timestamp) return "no_item_specified";
  if (!CHANNEL_SHAPE.test(channel)) return "channel_not_found";
  if (!EMOJI_NAME.test(name)) return "invalid_name";
  return { channel, timestamp, name };
}

export function addReaction(ctx: MethodContext): SlackAnswer {
  const item = target(ctx);
  if (typeof item === "string") return refusal(item);
  const message = ctx.state.messages.findOrPlaceholder(ctx.team.id, item.channel, item.timestamp, ctx.now);
  const reaction = message.reactions.find((r) => r.name === item.name);
  if (reaction?.users.includes(ctx.team.botUserId)) return refusal("already_reacted");
  if (reaction) reaction.users.push(ctx.team.botUserId);
  else message.reactions.push({ name: item.name, users: [ctx.team.botUserId] });
  return { ok: true };
}

export function removeReaction(ctx: MethodContext): SlackAnswer {
  const item = target(ctx);
  if (typeof item === "string") return refusal(item);
  const message = ctx.state.messages.find(ctx.team.id, item.channel, item.timestamp);
  if (!message) return refusal("message_not_found");
  const reaction = message.reactions.find((r) => r.name === item.name);
  if (!reaction?.users.includes(ctx.team.botUserId)) return refusal("no_reaction");
  reaction.users = reaction.users.filter((u) => u !== ctx.team.botUserId);
  if (reaction.users.length === 0) message.reactions = message.reactions.filter((r) => r !== reaction);
  return { ok: true };
}
