/**
 * @module
 * The platforms this Worker speaks, one adapter each. Adding a platform is adding its name to PLATFORMS
 * (lib/message.ts), its folder and its adapter here, and its route in functions/; the compiler asks for the adapter
 * of every name, and the job schema, the job flow, the settings and the admin view take their platforms from this list.
 */
import type { Platform } from "../message.ts";
import { jobSchemaFor } from "../queue/job.ts";
import type { PlatformAdapter } from "./adapter.ts";
import { discord } from "./discord/index.ts";
import { googleChat } from "./google-chat/index.ts";
import { slack } from "./slack/index.ts";
import { teams } from "./teams/index.ts";
import { telegram } from "./telegram/index.ts";
import { twilio } from "./twilio/index.ts";

const byPlatform = { slack, discord, twilio, telegram, [googleChat.platform]: googleChat, teams } satisfies Record<
  Platform,
  PlatformAdapter
>;

export const adapters: readonly PlatformAdapter[] = Object.values(byPlatform);

/** A job names its platform's reply target; every platform's adapter says what that target may hold. */
export const jobSchema = jobSchemaFor(adapters);
