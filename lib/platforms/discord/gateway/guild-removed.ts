/**
 * @module
 * GUILD_DELETE means two things: the guild is unavailable (an outage: `unavailable: true`, nothing to do), or the
 * bot was removed from it (no `unavailable`): then everything kept for the guild is to be deleted.
 */
import * as z from "../../../zod.ts";

const guildDeleteSchema = z.looseObject({ id: z.string().check(z.minLength(1)), unavailable: z.optional(z.boolean()) });

/** The id of the guild the bot was removed from; null for an outage or a payload that is not a GUILD_DELETE's. */
export function removedGuild(data: unknown): string | null {
  const parsed = guildDeleteSchema.safeParse(data);
  return parsed.success && !parsed.data.unavailable ? parsed.data.id : null;
}
