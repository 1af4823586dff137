/**
 * @module
 * Sends a simulated Discord channel message the way a bot receives one: as a MESSAGE_CREATE on its Gateway
 * connection (the fake Gateway's `POST /__message`). The Worker's Gateway Durable Object connects on the cron
 * trigger, which `wrangler dev` does not fire by itself: the first message fires it through wrangler's
 * `/cdn-cgi/local/scheduled` and waits until the bot is connected. The message is then put into the Discord REST
 * fake as well, as Discord keeps it: a thread started from it reads it there as its starter message. A thread is a
 * channel of its own (`POST /__channel`, type 11, the channel its parent).
 */
import { z } from "zod";
import { DISCORD_FAKE_BOT } from "../fakes/discord.ts";
import { DISCORD_PLACE, PEOPLE, replaceMentions, type SimulatedPerson } from "./people.ts";

const SCHEDULED_PATH = "/cdn-cgi/local/scheduled";
const CONNECT_TIMEOUT_MS = 10_000; // the Durable Object connects at once when woken; 10 s covers a busy machine
const gatewayState = z.looseObject({ connected: z.boolean() });
const PUBLIC_THREAD = 11;

export interface DiscordMessageSend {
  workerUrl: string;
  /** The Gateway fake's control origin (http://127.0.0.1:8094). */
  gatewayControlUrl: string;
  /** The Discord REST fake's origin. */
  discordFakeUrl: string;
  botName: string;
}

async function control(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${new URL(url).pathname} of a Discord fake answered ${res.status}`);
  return res.json();
}

async function connected(opts: DiscordMessageSend): Promise<boolean> {
  const res = await fetch(`${opts.gatewayControlUrl}/__state`);
  return res.ok && gatewayState.parse(await res.json()).connected;
}

async function ensureBotConnected(opts: DiscordMessageSend): Promise<void> {
  if (await connected(opts)) return;
  await (await fetch(`${opts.workerUrl}${SCHEDULED_PATH}`)).body?.cancel();
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  while (!(await connected(opts))) {
    if (Date.now() > deadline)
      throw new Error(
        "the Worker did not connect to the Gateway fake within 10 s: see its discord_gateway_* log lines",
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Writes in #general, or in the thread started from the message `threadId` (which is the thread's id too). */
export async function sendDiscordMessage(
  opts: DiscordMessageSend,
  person: SimulatedPerson,
  text: string,
  threadId?: string,
  /** Files on it, as the Discord fake's `/__attachments` made them (./attach.ts). */
  attachments: Record<string, unknown>[] = [],
): Promise<{ id: string }> {
  await ensureBotConnected(opts);
  const names = [
    { name: opts.botName, id: DISCORD_FAKE_BOT.userId },
    ...PEOPLE.map((p) => ({ name: p.name, id: p.discordUserId })),
  ];
  const content = replaceMentions(text, names, (id) => `<@${id}>`);
  const mentioned = names
    .filter((n) => content.includes(`<@${n.id}>`))
    .map((n) => ({ id: n.id, username: n.name.toLowerCase() }));
  const channelId = threadId ?? DISCORD_PLACE.channel;
  if (threadId)
    await control(`${opts.discordFakeUrl}/__channel`, {
      id: threadId,
      type: PUBLIC_THREAD,
      parent_id: DISCORD_PLACE.channel,
    });
  const author = { id: person.discordUserId, username: person.handle, global_name: person.name };
  const sent = z.object({ id: z.string() }).parse(
    await control(`${opts.gatewayControlUrl}/__message`, {
      channel_id: channelId,
      guild_id: DISCORD_PLACE.guild,
      author,
      member: { nick: null },
      content,
      mentions: mentioned,
      attachments,
    }),
  );
  await control(`${opts.discordFakeUrl}/__messages`, { id: sent.id, channel_id: channelId, content, author });
  return sent;
}
