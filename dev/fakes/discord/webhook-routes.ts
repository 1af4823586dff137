/**
 * @module
 * Interaction webhook routes of the Discord REST fake (no bot token, keyed on application id + interaction
 * token): edit `@original` (the message the app's acknowledgement made, kept across edits), read it back, post a
 * follow-up and edit a follow-up, with the 2,000-character limit and the components ./components.ts takes. Each
 * takes only a token Discord issued, whose
 * interaction the app acknowledged in time, within its 15 minutes (./interactions.ts).
 */
import type { ServerResponse } from "node:http";
import { keepComponents, refusedComponents } from "./components.ts";
import { DISCORD_ERROR, refusedContent, sendDiscordError } from "./errors.ts";
import { LOADING_FLAG } from "./interactions.ts";
import { botMessage, type DiscordRoute, type RouteContext } from "./route.ts";

const ORIGINAL = "@original";

export function matchWebhookRoute(ctx: RouteContext): DiscordRoute | undefined {
  const { method, path, body } = ctx;
  if (path[0] !== "webhooks" || !path[1] || !path[2]) return undefined;
  const [, applicationId, token] = path as [string, string, string];
  const messageId = path[3] === "messages" && path.length === 5 ? path[4]! : undefined;
  const common = {
    resource: `${applicationId}|${token}`,
    needsBot: false,
    bucket: "webhook" as const,
    fields: { applicationId, token, ...(messageId ? { messageId } : {}) },
  };
  const recorded = (route: "edit_original" | "followup" | "edit_followup", id: string, content: string) =>
    ctx.record({
      route,
      applicationId,
      token,
      id,
      content,
      allowed_mentions: body.allowed_mentions,
      ...(body.components !== undefined ? { components: body.components } : {}),
    });
  /** Answers Discord's refusal of the token, if it has one; true when it did. */
  const refusedToken = (res: ServerResponse) => {
    const refusal = ctx.interactions.refusal(applicationId, token, method === "GET");
    if (refusal) sendDiscordError(res, refusal);
    return refusal !== undefined;
  };

  if (method === "PATCH" && messageId === ORIGINAL) {
    return {
      ...common,
      name: "edit_original",
      run(res) {
        if (refusedToken(res) || refusedContent(res, body, { required: true }) || refusedComponents(res, body))
          return undefined;
        const known = ctx.messages.original(token);
        if (!known) return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        if (known.message.flags) known.message.flags &= ~LOADING_FLAG;
        const message = ctx.messages.edit(known, body.content as string, "edit_original");
        keepComponents(message, body);
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
        if (refusedToken(res)) return undefined;
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
        if (refusedToken(res) || refusedContent(res, body, { required: true }) || refusedComponents(res, body))
          return undefined;
        const message = botMessage(
          ctx.nextId(),
          ctx.messages.original(token)?.message.channel_id ?? "0",
          body.content as string,
          { webhook_id: applicationId },
        );
        keepComponents(message, body);
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
        if (refusedToken(res)) return undefined;
        const stored = ctx.messages.get(messageId);
        if (!stored || stored.token !== token) return void sendDiscordError(res, DISCORD_ERROR.unknownMessage);
        if (refusedContent(res, body, { required: false }) || refusedComponents(res, body)) return undefined;
        const message = ctx.messages.edit(
          stored,
          typeof body.content === "string" ? body.content : undefined,
          "edit_followup",
        );
        keepComponents(message, body);
        recorded("edit_followup", message.id, message.content);
        return { status: 200, body: message };
      },
    };
  }
  return undefined;
}
