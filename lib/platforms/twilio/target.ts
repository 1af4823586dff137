/**
 * @module
 * Where an SMS answer goes: to the person's number, from the bot number they texted, on the account (the tenant).
 */
import * as z from "zod";

export const twilioTargetSchema = z.object({ platform: z.literal("twilio"), accountSid: z.string(), to: z.string(), from: z.string() });

export type TwilioTarget = z.output<typeof twilioTargetSchema>;
