/**
 * @module
 * Reads what the platform fakes received and counts replies per place (Slack channel, Discord interaction token,
 * SMS recipient, Telegram chat, Google Chat space, Teams chat), polling until every expected place has one or the
 * deadline passes, then once more after a short quiet period so late duplicates are counted too.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { teamsChatOf } from "./teams-traffic.ts";

const POLL_MS = 250;
const QUIET_MS = 2_000;

interface Fakes {
  slack: string;
  discord: string;
  twilio: string;
  telegram: string;
  googleChat: string;
  teams: string;
}

const controlOrigin = (url: string) => new URL(url).origin;

async function calls(url: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${controlOrigin(url)}/__calls`);
  return (await res.json()) as Record<string, unknown>[];
}

async function countAll(fakes: Fakes): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const add = (place: unknown) => typeof place === "string" && counts.set(place, (counts.get(place) ?? 0) + 1);
  for (const c of await calls(fakes.slack)) add((c.body as Record<string, unknown> | undefined)?.channel ?? c.channel);
  // An interaction's answer edits its deferred message, once or (streaming) several times: one reply, however often.
  const edited = new Set<unknown>();
  for (const c of await calls(fakes.discord)) {
    if (!c.token || (c.route === "edit_original" && edited.has(c.token))) continue;
    if (c.route === "edit_original") edited.add(c.token);
    add(c.token);
  }
  for (const c of await calls(fakes.twilio)) add(c.to);
  // A Telegram answer is its sendMessage (a streamed one grows by edits, a draft is no message).
  for (const c of await calls(fakes.telegram)) if (c.route === "sendMessage") add(String(c.chat_id));
  // A Google Chat answer is its spaces.messages.create (a streamed one grows by patches).
  for (const c of await calls(fakes.googleChat)) if (c.route === "spaces.messages.create") add(c.space);
  // A Teams answer is its first message posted (a streamed one grows by replacing it, or in a 1:1 chat ends Teams'
  // stream with it; typing and stream updates are no message); a final message the Connector refused is none either.
  for (const c of await calls(fakes.teams))
    if (c.route === "send activity" && !c.refused && typeof c.conversation === "string")
      add(teamsChatOf(c.conversation));
  return counts;
}

export async function replyCounts(
  fakes: Fakes,
  expected: ReadonlySet<string>,
  deadlineMs: number,
): Promise<Map<string, number>> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const counts = await countAll(fakes);
    if ([...expected].every((place) => (counts.get(place) ?? 0) > 0) || Date.now() > deadline) break;
    await sleep(POLL_MS);
  }
  await sleep(QUIET_MS);
  return countAll(fakes);
}
