/**
 * @module
 * A place's own settings, set by the people who talk there (`/parley` on Slack and Discord: ./command.ts) and kept
 * in Redis per channel (a thread has its channel's). The ingest script reads them with the conversation in its one
 * round trip (lib/conversation/scripts.ts INGEST); everything is off until someone turns it on. A stored value
 * that does not parse reads as the defaults: a broken record turns the place's extras off, never the bot.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { placeSettingsKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { digestPlanSchema } from "../digests/plan.ts";
import * as z from "../zod.ts";

/**
 * 0: the bot speaks only when called, as without the setting; 100: every message addressed to nobody may get a word.
 */
export const EAGERNESS_MIN = 0;
export const EAGERNESS_MAX = 100;
/** How long a question may wait for a person's answer before the bot steps in, when the place sets it. */
export const RESCUE_MINUTES_MIN = 1;
export const RESCUE_MINUTES_MAX = 120;

const placeSettingsSchema = z.object({
  /** The bot may answer, unprompted, a message addressed to nobody in a conversation it is part of. */
  initiative: z._default(z.boolean(), false),
  /** How readily it does so (lib/decide/initiative.ts turns it into a threshold on the decider's score). */
  eagerness: z._default(z.number().check(z.int(), z.gte(EAGERNESS_MIN), z.lte(EAGERNESS_MAX)), 50),
  /** A person's question addressed to nobody that nobody answers gets the bot's answer (lib/rescue/job.ts). */
  rescue: z._default(z.boolean(), false),
  /** After how many minutes; unset: RESCUE_AFTER_MINUTES. */
  rescueMinutes: z.optional(z.number().check(z.int(), z.gte(RESCUE_MINUTES_MIN), z.lte(RESCUE_MINUTES_MAX))),
  /** Each answer carries 👍 / 👎 controls (lib/feedback/capability.ts), where the platform shows controls. */
  feedback: z._default(z.boolean(), false),
  /** `/parley digest`: the place's QStash schedule (lib/digests/) and when it runs; absent: no digest. */
  digest: z.optional(z.object({ scheduleId: z.string().check(z.minLength(1)), plan: digestPlanSchema })),
});

export type PlaceSettings = z.output<typeof placeSettingsSchema>;

export const DEFAULT_PLACE_SETTINGS: PlaceSettings = Object.freeze({
  initiative: false,
  eagerness: 50,
  rescue: false,
  feedback: false,
});

/**
 * The settings as stored (a JSON string, or what the REST client made of one); the defaults for none or a broken one.
 */
export function parsePlaceSettings(raw: unknown): PlaceSettings {
  if (raw === null || raw === undefined || raw === false || raw === "") return DEFAULT_PLACE_SETTINGS;
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return DEFAULT_PLACE_SETTINGS;
    }
  }
  const parsed = placeSettingsSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_PLACE_SETTINGS;
}

/** Reads and writes one place's settings (the `/parley` commands; the webhook reads them inside the ingest script). */
export class PlaceSettingsStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async read(key: ConversationKey): Promise<PlaceSettings> {
    return parsePlaceSettings(await this.#redis.get<unknown>(placeSettingsKey(this.#prefix, key)));
  }

  /** Applies `change` to the current settings and stores the whole; returns what is now in force. */
  async update(key: ConversationKey, change: Partial<PlaceSettings>): Promise<PlaceSettings> {
    const next = placeSettingsSchema.parse({ ...(await this.read(key)), ...change });
    await this.#redis.set(placeSettingsKey(this.#prefix, key), JSON.stringify(next));
    return next;
  }
}
