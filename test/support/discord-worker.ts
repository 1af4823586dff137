/**
 * @module
 * An interaction delivered to the Worker (in workerd) as Discord delivers it: signed, and the Worker's answer told
 * to the Discord fake, which otherwise refuses the answer's edits and follow-ups as Discord refuses them for an
 * interaction it never saw acknowledged (dev/fakes/discord/interactions.ts).
 */
import { discordFakeOrigin, sendAsDiscord } from "../../dev/fakes/discord/interaction-answers.ts";
import type { DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { signedInteractionRequest } from "./discord.ts";
import { callWorker, type TestEnv } from "./worker.ts";

/** Sends `interaction` (an object, or its JSON as sent) signed with `keys`; resolves with the Worker's answer. */
export async function interactAsDiscord(
  env: TestEnv,
  keys: DiscordSigningKeys,
  interaction: object | string,
  opts: { timestamp?: string; signature?: string } = {},
): Promise<Response> {
  const body = typeof interaction === "string" ? interaction : JSON.stringify(interaction);
  const request = await signedInteractionRequest(keys, body, opts);
  return sendAsDiscord(discordFakeOrigin(String(env.DISCORD_API_BASE_URL)), body, () => callWorker(env, request));
}
