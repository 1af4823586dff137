/**
 * @module
 * Channels of bench/chaos that invited the bot to join in (docs/initiative.md), their settings written where
 * `/parley` writes them: initiative channels (eagerness 100: every message addressed to nobody may get an unprompted
 * answer), where a mention is followed by chatter; and rescue channels, where a person's question addressed to
 * nobody waits RESCUE_AFTER_MINUTES on the virtual clock. The promises there: the mention answered (by its own
 * answer, or by one to a later message of its author's that covers it), no message answered twice, no more unprompted
 * answers than INITIATIVE_MAX_PER_HOUR, at
 * most one rescue per question and only in the thread under it, nothing at any other place.
 */
import type { Redis } from "@upstash/redis";
import { placeSettingsKey } from "../../lib/keys.ts";
import type { Random } from "../../dev/faults/seeded-random.ts";
import { SLACK_BOT_USER_ID } from "../load/traffic.ts";
import { APOLOGY } from "../../lib/notices.ts";
import type { Output } from "./checks.ts";
import { type Conversation, SLACK_TEAMS, slackClock, slackEventBody, tagOf } from "./plan.ts";

/** INITIATIVE_MAX_PER_HOUR's default: every unprompted answer of a run falls in one virtual hour of its channel. */
const INITIATIVE_MAX_PER_HOUR = 4;
const CHATTER = 5;
const WORDS = /w(\d+)n(\d+)w/g;

/** `count` initiative and `count` rescue channels, numbered after the plan's `first` conversations. */
export function planInvited(first: number, count: number, random: Random, run: string): Conversation[] {
  const nextTs = slackClock();
  const invited: Conversation[] = [];
  for (let k = 0; k < 2 * count; k++) {
    const id = first + k;
    const tag = tagOf(id);
    const word = (n: number) => `w${id}n${n}w`;
    const team = SLACK_TEAMS[k % 2]!;
    const person = (n: number) => `U${team.slice(-1)}I${Math.floor(random() * 4)}${n % 2}`;
    if (k < count) {
      const channel = `CI${run}${id}`;
      const messages = [
        {
          word: word(0),
          trigger: true,
          slackBody: slackEventBody(
            team,
            channel,
            person(0),
            `<@${SLACK_BOT_USER_ID}> ${tag} ${word(0)} what do you think of plan ${id}?`,
            nextTs(),
            {},
          ),
        },
      ];
      for (let n = 1; n <= CHATTER; n++)
        messages.push({
          word: word(n),
          trigger: false,
          slackBody: slackEventBody(
            team,
            channel,
            person(n),
            `${tag} ${word(n)} step ${n} looks fine to me`,
            nextTs(),
            {},
          ),
        });
      invited.push({
        id,
        kind: "slack_initiative",
        tag,
        place: { platform: "slack", tenant: team, channel },
        messages,
      });
    } else {
      const channel = `CR${run}${id}`;
      const ts = nextTs();
      const text = `does anyone know where plan ${id} is kept? ${tag} ${word(0)}`;
      // No trigger: nobody asked the bot. Its answer goes in the thread under it (questionTs).
      invited.push({
        id,
        kind: "slack_rescue",
        tag,
        place: { platform: "slack", tenant: team, channel },
        messages: [
          { word: word(0), trigger: false, slackBody: slackEventBody(team, channel, person(0), text, ts, {}) },
        ],
      });
    }
  }
  return invited;
}

/** Their settings, as `/parley` leaves them; a rescue's question is in Slack's history (where the job reads it). */
export async function prepareInvited(
  invited: readonly Conversation[],
  redis: Pick<Redis, "set">,
  keyPrefix: string,
  slackControl: string,
): Promise<void> {
  for (const c of invited) {
    const key = { platform: "slack" as const, tenant: c.place.tenant, channel: c.place.channel };
    const settings = c.kind === "slack_initiative" ? { initiative: true, eagerness: 100 } : { rescue: true };
    await redis.set(placeSettingsKey(keyPrefix, key), JSON.stringify(settings));
    if (c.kind !== "slack_rescue") continue;
    const { event } = slackEvent(c);
    const res = await fetch(`${slackControl}/__messages`, {
      method: "POST",
      body: JSON.stringify({
        team: c.place.tenant,
        ...{ channel: c.place.channel, ts: event.ts, user: event.user, text: event.text },
      }),
    });
    if (!res.ok) throw new Error(`putting a question into the Slack fake's history failed: ${res.status}`);
  }
}

const slackEvent = (c: Conversation) =>
  JSON.parse(c.messages[0]!.slackBody!) as { event: { ts: string; user: string; text: string } };

/** The channel a place's outputs are counted in (a rescue's thread is its channel's). */
const channelOf = (o: Output) => `${o.place.platform}|${o.place.channel}`;

/** Whether an output was in one of the invited channels (./checks.ts counts the others). */
export function inInvited(invited: readonly Conversation[]): (o: Output) => boolean {
  const channels = new Set(invited.map((c) => `slack|${c.place.channel}`));
  return (o) => channels.has(channelOf(o));
}

export function checkInvited(
  invited: readonly Conversation[],
  accepted: ReadonlySet<string>,
  outputs: readonly Output[],
  problems: string[],
) {
  const f = { invited_channels: invited.length, unprompted_answers: 0, rescues: 0, invited_broken: 0 };
  const broken = (what: string) => {
    f.invited_broken++;
    problems.push(what);
  };
  for (const c of invited) {
    const here = outputs.filter((o) => channelOf(o) === `slack|${c.place.channel}`);
    if (c.kind === "slack_rescue") {
      const inThread = here.filter((o) => o.place.thread === slackEvent(c).event.ts);
      f.rescues += inThread.length;
      if (inThread.length > 1) broken(`rescued_twice: question of conversation ${c.id} got ${inThread.length} answers`);
      if (here.length > inThread.length)
        broken(`misplaced rescue: conversation ${c.id} got an answer outside the question's thread`);
      continue;
    }
    // The mention needs an answer (or, after the last retry, an apology): its own, or one to a later message of its
    // author's, whose turn it is part of (the mention's job then ends `covered`). What came beside it was unprompted.
    const mention = c.messages[0]!.word;
    const forMention = here.filter((o) => o.text === APOLOGY || o.text.includes(mention)).length;
    if (accepted.has(mention) && here.length === 0)
      broken(`mention of conversation ${c.id} (slack_initiative) got no answer`);
    if (forMention > 1) broken(`mention of conversation ${c.id} (slack_initiative) got ${forMention} answers`);
    const unprompted = here.length - Math.max(1, forMention);
    f.unprompted_answers += unprompted;
    if (unprompted > INITIATIVE_MAX_PER_HOUR)
      broken(`over the cap: conversation ${c.id} got ${unprompted} unprompted answers`);
    const quoted = here.flatMap((o) => [...new Set([...o.text.matchAll(WORDS)].map((m) => m[0]))]);
    const twice = quoted.filter((w, i) => quoted.indexOf(w) !== i);
    if (twice.length > 0)
      broken(`answered_twice: conversation ${c.id}'s ${[...new Set(twice)].join(", ")} answered more than once`);
  }
  return f;
}
