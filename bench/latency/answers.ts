/**
 * @module
 * The questions of bench/latency, one conversation each, signed as the platforms sign them: a Slack mention in a
 * thread (Slack streams there) or in the channel itself (edited as it grows), and a Discord `/ask`. Each carries a
 * marker of its own, so that the model's record of requests tells when its answer was asked for.
 */
import { askInteraction, snowflake } from "../../test/support/discord.ts";
import * as traffic from "../load/traffic.ts";

export const KINDS = ["slack_thread", "slack_channel", "discord_interaction"] as const;
export type Kind = (typeof KINDS)[number];
export const MODES = ["streaming", "streaming_off"] as const;
export type Mode = (typeof MODES)[number];

/** The Slack workspace of each kind and mode (./install.ts). */
export const slackTeam = (kind: Kind, mode: Mode) => `TLAT${kind === "slack_thread" ? "THREAD" : "CHANNEL"}${mode === "streaming" ? "ON" : "OFF"}`;
export const SLACK_TEAMS = MODES.flatMap((mode) => [slackTeam("slack_thread", mode), slackTeam("slack_channel", mode)]);
const GUILD = "350000000000000001";

export interface Question {
  kind: Kind;
  mode: Mode;
  marker: string;
  /** Slack channel or Discord interaction token: where the answer shows. */
  place: string;
  request(workerUrl: string): Request;
}

let seq = 0;

export function question(kind: Kind, mode: Mode, run: string, discord: traffic.DiscordSigner): Question {
  seq += 1;
  const marker = `q${run}x${seq}`;
  const text = `<@${traffic.SLACK_BOT_USER_ID}> how should I cache this? ${marker}`;
  if (kind === "discord_interaction") {
    const interaction = askInteraction({ guildId: GUILD, channelId: snowflake() }, { id: snowflake(), name: `Person${seq}` }, `how should I cache this? ${marker}`);
    const body = JSON.stringify(interaction);
    return { kind, mode, marker, place: interaction.token, request: (url) => traffic.discordRequest(url, discord, body) };
  }
  const channel = `CL${run}${seq}`;
  const now = Date.now() / 1000;
  const ts = now.toFixed(6);
  // A thread reply answers in the thread; its parent is a message from a moment before.
  const threadTs = kind === "slack_thread" ? (now - 1).toFixed(6) : undefined;
  const body = traffic.slackEvent(slackTeam(kind, mode), channel, `UPERSON${seq}`, text, ts, threadTs);
  return { kind, mode, marker, place: channel, request: (url) => traffic.slackRequest(url, body) };
}
