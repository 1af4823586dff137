/**
 * @module
 * Interaction webhook routes of the Discord REST fake (no bot token, keyed on application id + interaction
 * token): edit `@original` (one message per interaction, kept across edits), read it back, post a follow-up and
 * edit a follow-up, with the 2,000-character limit.
 */
import { DISCORD_ERROR, refusedContent, sendDiscordError } from "./errors.ts";
import { botMessage, type DiscordRoute, type RouteContext } from "./route.ts";

const ORIGINAL = "@original";

export function matchWebhookRoute(ctx: RouteContext): DiscordRoute | undefined {
  const { method, path, body } = ctx;
  if (path[0] !== "webhooks" || !path[1] || !path[2]) return undefined;
  const [, applicationId, token] = path as [string, string, string];
  const messageId = path[3] === "messages" && path.length === 5 ? path[4]! : undefined;
  const common = { resource: `${applicationId}|${token}`, needsBot: false, bucket: "webhook" as const, fields: { applicationId, token, ...(messageId ? { messageId } : {}) } };
  const recorded = (route: "edit_original" | "followup" | "edit_followup", id: string, content: string) =>
    ctx.record({ route, applicationId, token, id, content, allowed_mentions: body.allowed_mentions });

  if (method === "PATCH" && messageId === ORIGINAL) {
    return {
      ...common,
      name: "edit_original",
      run(res) {
        if (refusedContent(res, body, { required: true })) return undefined;
        const known = ctx.messages.original(token);
        const message = known
          ? ctx.messages.edit(known, body.content as string, "edit_original")
          : ctx.messages.create(botMessage(ctx.nextId(), "0", body.content as string, { webhook_id: applicationId }), "edit_original", token).message;
        ctx.messages.setOriginal(token, message.id);
        recorded("edit_original", message.id, message.content);
        return { status: 200, body: message };
      },
    };
  }
  if (method === "GET" && messageId === ORIGINAL) {
    return {
      ...common,
      name: "get_original",
      run(res) {
        const known = ctx.messages.original(token);
        return known ? { status: 200, body: known.message } : void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
      },
    };
  }
  if (method === "POST" && path.length === 3) {
    return {
      ...common,
      name: "followup",
      run(res) {
        if (refusedContent(res, body, { required: true })) return undefined;
        const message = botMessage(ctx.nextId(), "0", body.content as string, { webhook_id: applicationId });
        ctx.messages.create(message, "followup", token);
        recorded("followup", message.id, message.content);
        return { status: 200, body: message };
      },
    };
  }
  if (method === "PATCH" && messageId) {
    return {
      ...common,
      name: "edit_followup",
      run(res) {
        const stored = ctx.messages.get(messageId);
        if (!stored || stored.token !== token) return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        if (refusedContent(res, body, { required: false })) return undefined;
        const message = ctx.messages.edit(stored, typeof body.content === "string" ? body.content : undefined, "edit_followup");
        recorded("edit_followup", message.id, message.content);
        return { status: 200, body: message };
      },
    };
  }
  return undefined;
}
