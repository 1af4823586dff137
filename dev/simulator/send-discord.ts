/**
 * @module
 * Sends a simulated `/ask` to the Worker the way Discord does: an APPLICATION_COMMAND interaction signed with
 * Ed25519 over `timestamp + body`, and tells the Discord fake what the Worker answered (as Discord learns it), so
 * that the fake takes the answer's edits. The Worker checks it with DISCORD_PUBLIC_KEY; the simulator holds the
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
  const signed = await discordHeaders(opts.privateKey ?? (await localDevPrivateKey()), body);
  const res = await sendAsDiscord(opts.discordFakeUrl, body, () =>
    fetch(`${opts.workerUrl}/discord/interactions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...signed },
      body,
    }),
  );
  const text = await res.text();
  let response: unknown = text;
  try {
    response = JSON.parse(text);
  } catch {}
  return { id, token, status: res.status, response };
}
