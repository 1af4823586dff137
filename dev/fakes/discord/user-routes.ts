/**
 * @module
 * User routes of the Discord REST fake (Bot token): Create DM (`POST /users/@me/channels {recipient_id}`,
 * discord/discord-api-docs resources/user.mdx), which answers the DM channel (type 1) between the bot and that user,
 * the same one for every call, as Discord does; a body without a snowflake `recipient_id` is 50035 Invalid Form Body.
 * The bot posts there as in any channel (./channel-routes.ts).
 */
import { sendInvalidFormBody } from "./errors.ts";
import type { DiscordRoute, RouteContext } from "./route.ts";

const DM_CHANNEL = 1;

export function matchUserRoute(ctx: RouteContext): DiscordRoute | undefined {
  const { method, path, body } = ctx;
  if (method !== "POST" || path.join("/") !== "users/@me/channels") return undefined;
  const recipient = body.recipient_id;
  return {
    name: "create_dm",
    resource: "users/@me",
    needsBot: true,
    fields: typeof recipient === "string" ? { id: recipient } : {},
    run(res) {
      if (typeof recipient !== "string" || !/^\d+$/.test(recipient))
        return void sendInvalidFormBody(res, "recipient_id", "NUMBER_TYPE_COERCE", "Value is not snowflake.");
      const id = ctx.dmChannel(recipient);
      ctx.record({ route: "create_dm", id: recipient, channelId: id });
      return {
        status: 200,
        body: {
          id,
          type: DM_CHANNEL,
          last_message_id: null,
          recipients: [{ id: recipient, username: `user${recipient}` }],
        },
      };
    },
  };
}
