/**
 * @module
 * The platforms this Worker speaks, one adapter each. Adding a platform is adding its adapter here (and its route
 * in functions/); the job schema, the job flow and the admin view take their platforms from this list.
 */
import type { PlatformAdapter } from "./adapter.ts";
import { discord } from "./discord/index.ts";
import { slack } from "./slack/index.ts";
import { twilio } from "./twilio/index.ts";

export const adapters: readonly PlatformAdapter[] = [slack, discord, twilio];
