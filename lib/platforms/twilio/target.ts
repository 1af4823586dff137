/**
 * @module
 * Where an SMS or WhatsApp answer goes: to the person's address, from the bot address they wrote to (through the
 * Messaging Service it came through, if any), on the account (the tenant).
 */
import * as z from "../../zod.ts";

export const twilioTargetSchema = z.object({
  platform: z.literal("twilio"),
  accountSid: z.string(),
  to: z.string(),
  from: z.string(),
  messagingServiceSid: z.optional(z.string()),
});

export type TwilioTarget = z.output<typeof twilioTargetSchema>;
