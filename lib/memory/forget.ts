/**
 * @module
 * "Forget me": a message that is nothing but that (after the bot's name or mention), addressed to the bot, deletes
 * the person's facts in this tenant and the conversation where they asked, then the bot confirms.
 */
import { isResetRequest } from "../conversation/reset.ts";
import { using } from "../errors.ts";
import type { BotIdentity } from "../message.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import { factStoreFor } from "./facts-for.ts";

/** Whole-message phrases; the reset matcher already knows how to compare a bare phrase after the bot's name. */
export const FORGET_PHRASES = ["forget me", "forget about me"];
export const FORGET_CONFIRMATION = "Done: I have forgotten what I knew about you, and this conversation.";

export function isForgetRequest(text: string, bot: BotIdentity): boolean {
  return isResetRequest(text, bot, FORGET_PHRASES);
}

/** The person's facts in this tenant and the conversation where they asked go in one DEL. */
export async function forgetPerson(rt: Runtime, job: Job): Promise<void> {
  await using("redis", () => factStoreFor(rt).forget(job.key, job.trigger.authorId));
  rt.log.info("person_forgotten", { platform: job.key.platform, tenant: job.key.tenant, channel: job.key.channel });
}
