/**
 * @module
 * A passage: a few consecutive messages of a conversation (or its summary), stored in Upstash Vector as text
 * (`data`, embedded by the index's own model) with the metadata recall filters on and forgetting deletes by.
 */
import * as z from "../../zod.ts";
import { PLATFORMS, VISIBILITIES } from "../../message.ts";

/**
 * Who could read the place (lib/message.ts): recall never carries a DM's or a private channel's passages anywhere else.
 */
export type { Visibility } from "../../message.ts";

export const passageMetadataSchema = z.object({
  platform: z.enum(PLATFORMS),
  tenant: z.string(),
  channel: z.string(),
  /** The thread, for a passage of a thread conversation. */
  thread: z.optional(z.string()),
  visibility: z.enum(VISIBILITIES),
  /**
   * Ids of the people the passage is about (never the bot): who wrote in it, and whom the bot's messages in it answer.
   * "forget me" deletes by this.
   */
  people: z.array(z.string()),
  /** Time of the first and the last message, ms since the epoch. */
  start: z.number(),
  end: z.number(),
  conversation: z.string(),
  kind: z.enum(["messages", "summary"]),
});
export type PassageMetadata = z.output<typeof passageMetadataSchema>;

export interface Passage {
  /** The same messages always give the same id, so indexing them again replaces instead of adding. */
  id: string;
  text: string;
  metadata: PassageMetadata;
}
