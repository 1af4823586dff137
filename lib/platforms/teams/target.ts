/**
 * @module
 * Where a Teams answer goes: the service URL the activity named (one of the hosts the bot's token may go to,
 * ./service-url.ts, checked again wherever a target arrives), the conversation id as Teams gave it (a channel's with
 * its `;messageid=` root, so the answer joins the reply chain), the activity it answers (`replyToId`), and whether
 * the chat is a 1:1 one.
 */
import * as z from "../../zod.ts";

export const teamsTargetSchema = z.object({
  platform: z.literal("teams"),
  serviceUrl: z.url({ protocol: /^https?$/ }),
  conversationId: z.string().check(z.minLength(1), z.maxLength(1_000)),
  replyToId: z.optional(z.string()),
  personal: z.boolean(),
});

export type TeamsTarget = z.output<typeof teamsTargetSchema>;
