/**
 * @module
 * Where an SMS or WhatsApp answer goes: to the person's address, from the bot address they wrote to (through the
 * Messaging Service it came through, if any), on the account (the tenant).
 */
import * as z from "zod";

export const twilioTargetSchema = z.object({
  platform: z.literal("twilio"),
  accountSid: z.string(),
  to: z.string(),
  from: z.string(),
  messagingServiceSid: z.string().optional(),
});

export type TwilioTarget = z.output<typeof twilioTargetSchema>;
