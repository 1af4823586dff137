/**
 * @module
 * Microsoft Teams for the benches (bench/load, bench/chaos): the Worker's settings for the Teams fake (its OpenID
 * metadata, token endpoint and service URL, the fake's bot registration), conversations made in the fake (the fake
 * names them, as Teams does), and people's messages written there: the fake answers with the activity the Bot
 * Connector would send the bot (in a channel only when it @mentions the bot; every message of a 1:1 chat), which is
 * posted to the Worker's /teams/messages with its bearer token, as the Connector posts it.
 */
import { connectorHeaders } from "../../dev/fakes/teams/activities.ts";
import { teamsFakeSettings } from "../../dev/fakes/teams/settings.ts";
import { fakeControl, type HeldDelivery, heldDelivery } from "./fake-deliveries.ts";
import type { PlannedMessage } from "./traffic.ts";

export type TeamsConversationType = "channel" | "groupChat" | "personal";

/** The Worker's Teams settings for a bench: the fake's bot registration. */
export function teamsVars(fakeUrl: string): Record<string, string> {
  return teamsFakeSettings(fakeUrl, new Map());
}

export function teamsRequest(baseUrl: string, delivery: HeldDelivery): Request {
  return new Request(`${baseUrl}/teams/messages`, {
    method: "POST",
    headers: connectorHeaders(delivery.authorization),
    body: JSON.stringify(delivery.body),
  });
}

/** A channel, group chat or 1:1 chat with the bot in it: the id the fake gave it. */
export async function makeTeamsConversation(fakeUrl: string, type: TeamsConversationType): Promise<string> {
  return (await fakeControl<{ id: string }>(fakeUrl, "/__conversation", { type })).id;
}

export interface TeamsSay {
  conversation: string;
  /** `29:…` and the name people see. */
  from: { id: string; name: string };
  text: string;
  mention: boolean;
  /** A reply in this reply chain (its root's id); a new post at the top otherwise. */
  thread?: string;
}

/** A person writes in the fake's Teams; the message's id, its reply chain, and what the bot gets (null: nothing). */
export function teamsSay(
  fakeUrl: string,
  say: TeamsSay,
): Promise<{ id: string; root?: string; delivery: HeldDelivery | null }> {
  return fakeControl(fakeUrl, "/__message", { ...say, deliver: false });
}

/** The chat a Connector call's conversation names (a channel's names its reply chain after `;messageid=`). */
export const teamsChatOf = (conversation: string): string => conversation.split(";messageid=")[0]!;

/**
 * bench/load's Teams places: a channel where a person @mentions the bot in a new post (the conversation's start) and
 * a 1:1 chat with the bot, alternating; each needs one answer. The conversation (which the fake names: the place) and
 * its delivery are made in the fake before the phases.
 */
export function teamsPlaces(count: number, run: string): PlannedMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const dm = i % 2 === 1;
    const text = dm ? `what is the answer to ${i}?` : `I'm planning step ${i}. What do you think?`;
    const from = { id: `29:1bench${run}x${i}`, name: `Person ${i}` };
    const planned: PlannedMessage = {
      platform: "teams",
      kind: dm ? "teams_dm" : "teams_new_mention",
      place: "",
      needsAnswer: true,
      ...heldDelivery(
        () => `Teams place ${i}`,
        async (fakes) => {
          planned.place = await makeTeamsConversation(fakes.teams, dm ? "personal" : "channel");
          return (await teamsSay(fakes.teams, { conversation: planned.place, from, text, mention: !dm })).delivery;
        },
        teamsRequest,
      ),
    };
    return planned;
  });
}
