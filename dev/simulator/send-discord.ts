/**
 * @module
 * Sends a simulated `/ask` to the Worker the way Discord does (and a press of a button on the bot's message: a
 * MESSAGE_COMPONENT interaction): an APPLICATION_COMMAND interaction signed with Ed25519 over `timestamp + body`,
 * and tells the Discord fake what the Worker answered (as Discord learns it), so that the fake takes the answer's
 * edits. The Worker checks it with DISCORD_PUBLIC_KEY; the simulator holds the
 * matching private key of the local-only key pair in .dev.vars.example (never a real application's key).
 */
import { randomBytes } from "node:crypto";
import { sendAsDiscord } from "../fakes/discord/interaction-answers.ts";
import { discordHeaders, importDiscordPrivateKey } from "../signers/discord.ts";
import { DISCORD_PLACE, type SimulatedPerson } from "./people.ts";

/** PKCS#8 DER of the local dev key pair whose public half is DISCORD_PUBLIC_KEY in .dev.vars.example. */
const LOCAL_DEV_PRIVATE_KEY_HEX =
  "302e020100300506032b657004220420bdfe173e37d6e6ba79825cf30280045b562b932c0430043d6891985098e27590";
const INTERACTION_TYPE_APPLICATION_COMMAND = 2;
const COMMAND_TYPE_CHAT_INPUT = 1;
const OPTION_TYPE_STRING = 3;
/** Discord's epoch (2015-01-01) in milliseconds: snowflakes count from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

export interface DiscordSend {
  workerUrl: string;
  /** The Discord fake's origin (its `POST /__interactions`). */
  discordFakeUrl: string;
  applicationId: string;
  privateKey?: CryptoKey;
}

export interface SentInteraction {
  id: string;
  token: string;
  status: number;
  /** The Worker's answer to Discord: `{"type":5}` means "thinking…", then an edit of @original. */
  response: unknown;
}

let increment = 0n;
function snowflake(): string {
  increment = (increment + 1n) % 4096n;
  return String(((BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n) | increment);
}

function localDevPrivateKey(): Promise<CryptoKey> {
  return importDiscordPrivateKey(LOCAL_DEV_PRIVATE_KEY_HEX);
}

/** Posts the interaction `body` to the Worker signed as Discord signs it, and tells the fake what it answered. */
async function signedInteraction(opts: DiscordSend, body: string): Promise<Response> {
  const signed = await discordHeaders(opts.privateKey ?? (await localDevPrivateKey()), body);
  return sendAsDiscord(opts.discordFakeUrl, body, () =>
    fetch(`${opts.workerUrl}/discord/interactions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...signed },
      body,
    }),
  );
}

export async function sendAskCommand(
  opts: DiscordSend,
  person: SimulatedPerson,
  question: string,
): Promise<SentInteraction> {
  const id = snowflake();
  const token = `sim-${randomBytes(24).toString("base64url")}`;
  const body = JSON.stringify({
    id,
    application_id: opts.applicationId,
    type: INTERACTION_TYPE_APPLICATION_COMMAND,
    token,
    version: 1,
    guild_id: DISCORD_PLACE.guild,
    channel_id: DISCORD_PLACE.channel,
    member: { user: { id: person.discordUserId, username: person.handle, global_name: person.name }, nick: null },
    data: {
      id: "400000000000000001",
      name: "ask",
      type: COMMAND_TYPE_CHAT_INPUT,
      options: [{ name: "question", type: OPTION_TYPE_STRING, value: question }],
    },
  });
  const res = await signedInteraction(opts, body);
  const text = await res.text();
  let response: unknown = text;
  try {
    response = JSON.parse(text);
  } catch {}
  return { id, token, status: res.status, response };
}

const INTERACTION_TYPE_MESSAGE_COMPONENT = 3;
const COMPONENT_TYPE_BUTTON = 2;

/**
 * `person` presses the button `customId` of the bot's message `messageId` in channel `channelId`: a MESSAGE_COMPONENT
 * interaction, signed, told to the fake as every interaction is; what the Worker said to the presser alone (a type 4
 * answer's content), if anything.
 */
export async function pressDiscord(
  opts: DiscordSend,
  person: SimulatedPerson,
  press: { channelId: string; messageId: string; id: string },
): Promise<{ status: number; note?: string }> {
  const body = JSON.stringify({
    id: snowflake(),
    application_id: opts.applicationId,
    type: INTERACTION_TYPE_MESSAGE_COMPONENT,
    token: `sim-${randomBytes(24).toString("base64url")}`,
    version: 1,
    guild_id: DISCORD_PLACE.guild,
    channel_id: press.channelId,
    member: {
      user: { id: person.discordUserId, username: person.handle, global_name: person.name },
      nick: null,
      // View Channel and Send Messages: a person of the channel, no admin.
      permissions: String((1n << 10n) | (1n << 11n)),
    },
    message: { id: press.messageId, channel_id: press.channelId },
    data: { custom_id: press.id, component_type: COMPONENT_TYPE_BUTTON },
  });
  const res = await signedInteraction(opts, body);
  const answer = (await res.json().catch(() => null)) as { type?: number; data?: { content?: string } } | null;
  const note = answer?.type === 4 ? answer.data?.content : undefined;
  return { status: res.status, ...(note ? { note } : {}) };
}
