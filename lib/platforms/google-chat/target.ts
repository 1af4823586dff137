/**
 * @module
 * Where a Google Chat answer goes: the space, and in a space of threads the thread of the message it answers (the
 * answer joins it; a message at the top of a space started a thread of its own). `dm` marks a direct message.
 */
import * as z from "../../zod.ts";
import { SPACE_NAME, THREAD_NAME } from "./schema.ts";

export const googleChatTargetSchema = z.object({
  platform: z.literal("google-chat"),
  space: z.string().check(z.regex(SPACE_NAME)),
  thread: z.optional(z.string().check(z.regex(THREAD_NAME))),
  dm: z.boolean(),
});

export type GoogleChatTarget = z.output<typeof googleChatTargetSchema>;
