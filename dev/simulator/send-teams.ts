/**
 * @module
 * The simulator's Microsoft Teams: a channel "General" of the team (each post at the top starts its reply chain, which
 * the answer joins), a group chat with Alice, Bob and Carol, and each person's 1:1 chat with the bot, made in the
 * Teams fake at start (the fake names them, as Teams does). A person's message is written there and the fake's Bot
 * Connector sends the Worker's endpoint what Teams would (in the channel and the group chat only a message that
 * @mentions the bot; every message of a 1:1 chat), with its signed bearer token (`npm run dev` gave the fake the
 * Worker's endpoint: dev/fakes/teams/settings.ts).
 */
import { PEOPLE, type SimulatedPerson } from "./people.ts";

/** Where on Teams the person writes. */
export type TeamsSpot = "channel" | "group" | "dm";

/** The conversations the fake made: the channel, the group chat, and each person's 1:1 chat by handle. */
export interface TeamsChats {
  tenant: string;
  channel: string;
  group: string;
  dms: Record<string, string>;
}

async function control<T>(fakeUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${fakeUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the Teams fake answered ${path} with ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Makes the channel, the group chat and the 1:1 chats. */
export async function readyTeams(fakeUrl: string): Promise<TeamsChats> {
  const make = (type: string) => control<{ id: string; tenantId: string }>(fakeUrl, "/__conversation", { type });
  const channel = await make("channel");
  const group = await make("groupChat");
  const dms: Record<string, string> = {};
  for (const p of PEOPLE) dms[p.handle] = (await make("personal")).id;
  return { tenant: channel.tenantId, channel: channel.id, group: group.id, dms };
}

/** The admin view's key of a conversation there: the channel's reply chain, or the chat (unthreaded). */
export const teamsPlace = (tenant: string, chat: string, root?: string) => `teams|${tenant}|${chat}|${root ?? ""}`;

/** The chat of a spot: the channel, the group chat, or the person's 1:1 chat. */
const teamsChatOf = (chats: TeamsChats, spot: TeamsSpot, person: SimulatedPerson) =>
  spot === "dm" ? chats.dms[person.handle]! : spot === "group" ? chats.group : chats.channel;

/**
 * The person writes `text` (outside a 1:1 chat, `@Name` of the bot is the @mention Teams makes of it); the message's
 * id, its chat, and the place of its conversation.
 */
export async function sendTeams(
  fakeUrl: string,
  chats: TeamsChats,
  botName: string,
  person: SimulatedPerson,
  text: string,
  spot: TeamsSpot,
): Promise<{ id: string; chat: string; place: string }> {
  const chat = teamsChatOf(chats, spot, person);
  const mention = new RegExp(`@${botName}\\b\\s*`, "gi");
  const sent = await control<{ id: string; root?: string; delivery: { status?: number } | null }>(
    fakeUrl,
    "/__message",
    {
      conversation: chat,
      from: { id: person.teamsUser, name: person.name },
      text: text.replace(mention, "").trim(),
      mention: spot !== "dm" && mention.test(text),
    },
  );
  const status = sent.delivery?.status;
  if (status !== undefined && status !== 200) throw new Error(`the Worker answered the Connector with ${status}`);
  return { id: `${chat}#${sent.id}`, chat, place: teamsPlace(chats.tenant, chat, sent.root) };
}
