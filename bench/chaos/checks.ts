/**
 * @module
 * The promises of bench/chaos, checked from the outside: what the platform fakes show people (answers, apologies),
 * what the local model was asked (prompts), what Redis holds (conversation logs), and what went past in log lines
 * and queue payloads; never from the Worker's own account of what it did.
 */
import type { Redis } from "@upstash/redis";
import { APOLOGY, isApprovalFollowUp } from "../../lib/notices.ts";
import { TELEGRAM_BOT } from "../load/telegram-traffic.ts";
import { TAG_PATTERN, type Conversation, type Place } from "./plan.ts";

/** Something a person saw from the bot, where they saw it (on Slack, in the team of the token that posted it). */
export interface Output {
  place: Omit<Place, "tenant"> & { tenant?: string };
  text: string;
}

export const origin = (apiBase: string) => apiBase.replace(/\/(api(\/v10)?|v1)$/, "");

export async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

/**
 * What people see from the bot: the bot's Slack messages as they stand (a streamed answer is one message), each
 * Discord interaction's original as it stands plus its follow-ups, every text sent, the Telegram, Google Chat and
 * Teams messages as they stand. An original that showed an
 * answer and then an apology (or the reverse) counts as both: the person saw two.
 */
export async function collectOutputs(fakes: {
  slack: string;
  discord: string;
  twilio: string;
  telegram: string;
  googleChat: string;
  teams: string;
}): Promise<Output[]> {
  const slack = await json<{ team: string; channel: string; text?: string; thread_ts?: string; bot_id?: string }[]>(
    `${origin(fakes.slack)}/__messages`,
  );
  const discord = await json<{ route: string; token?: string; content?: string }[]>(`${origin(fakes.discord)}/__calls`);
  const twilio = await json<{ to: string; body: string }[]>(`${origin(fakes.twilio)}/__calls`);
  const outputs: Output[] = [];
  for (const m of slack)
    if (m.bot_id && m.text)
      outputs.push({
        place: {
          platform: "slack",
          tenant: m.team,
          channel: m.channel,
          ...(m.thread_ts ? { thread: m.thread_ts } : {}),
        },
        text: m.text,
      });
  const originals = new Map<string, string[]>();
  for (const c of discord) {
    if (!c.token || c.content === undefined) continue;
    if (c.route === "followup") outputs.push({ place: { platform: "discord", channel: c.token }, text: c.content });
    if (c.route === "edit_original") originals.set(c.token, [...(originals.get(c.token) ?? []), c.content]);
  }
  for (const [token, edits] of originals) {
    const last = edits.at(-1)!;
    const replaced = edits.find(
      (e) => (e === APOLOGY) !== (last === APOLOGY) && (e === APOLOGY || tagsIn(e).length > 0),
    );
    for (const text of replaced === undefined ? [last] : [replaced, last])
      outputs.push({ place: { platform: "discord", channel: token }, text });
  }
  for (const t of twilio) outputs.push({ place: { platform: "twilio", channel: t.to }, text: t.body });
  // A message as it stands; one streamed (edited) from an answer into an apology, or back, counts as both.
  const standing = (place: Output["place"], m: Edited) => {
    for (const text of asSeen(m.text, m.revisions)) outputs.push({ place, text });
  };
  const telegram = await json<(Edited & { chat_id: number; from: number })[]>(`${fakes.telegram}/__messages`);
  for (const m of telegram.filter((t) => t.from === TELEGRAM_BOT.id))
    standing({ platform: "telegram", channel: String(m.chat_id) }, m);
  // The app's Google Chat messages the same way; in a thread when posted as a reply in one.
  type ChatMessage = Edited & { space: string; thread: string; threadReply: boolean; byApp: boolean };
  for (const m of await json<ChatMessage[]>(`${fakes.googleChat}/__messages?byApp=true`))
    if (m.byApp)
      standing({ platform: "google-chat", channel: m.space, ...(m.threadReply ? { thread: m.thread } : {}) }, m);
  // The bot's Teams messages; in a channel, in the reply chain it was posted in. A 1:1 stream that showed only its
  // status line (an attempt that died before the answer's words) is no message: Teams ends it without one.
  for (const m of await json<(Edited & { conversation: string; root?: string })[]>(`${fakes.teams}/__activities`))
    if (m.text !== "")
      standing({ platform: "teams", channel: m.conversation, ...(m.root ? { thread: m.root } : {}) }, m);
  return outputs;
}

type Edited = { text: string; revisions: { text?: string }[] };

/** What people saw of a message edited as it streamed: its text, and before it an answer it replaced by an apology. */
function asSeen(final: string, revisions: readonly { text?: string }[]): string[] {
  const replaced = revisions
    .map((r) => r.text ?? "")
    .find((e) => (e === APOLOGY) !== (final === APOLOGY) && (e === APOLOGY || tagsIn(e).length > 0));
  return replaced === undefined ? [final] : [replaced, final];
}

/** On Slack the team is part of the place: a post made with the other tenant's token is misplaced. */
const placeKey = (p: Output["place"]) =>
  `${p.platform}|${p.platform === "slack" ? `${p.tenant}/` : ""}${p.channel}|${p.thread ?? ""}`;
/** A stream opens with the model's first words: shorter than this, and before the answer's tag. */
const OPENING_MAX_CHARS = 20;
export const tagsIn = (text: string) => [...text.matchAll(TAG_PATTERN)].map((m) => Number(m[1]));

/**
 * Exactly one answer per accepted trigger: each output is the answer of the conversation it quotes (the local model
 * quotes the message it answers), apologies go to the place's conversations left without an answer; what follows a
 * confirm tool's question (its result, its cancellation) is no answer, but must be in its conversation's place.
 * `sentTwiceAllowed`: the places where a send was carried out and its answer lost on a platform that offers no way
 * to look for it (Telegram: ../../docs/platforms/telegram.md#exactly-once), so the part is sent again: a second
 * copy there is what the platform allows, counted apart (`twice_as_platform_allows`), not a broken promise.
 */
export function checkAnswers(
  conversations: readonly Conversation[],
  accepted: ReadonlySet<string>,
  outputs: readonly Output[],
  problems: string[],
  sentTwiceAllowed: ReadonlySet<string> = new Set(),
) {
  const byId = new Map(conversations.map((c) => [c.id, c]));
  const answers = new Map<number, number>();
  const apologies = new Map<string, number>();
  let misplaced = 0;
  let openingsLeft = 0;
  for (const o of outputs) {
    if (o.text === APOLOGY) {
      apologies.set(placeKey(o.place), (apologies.get(placeKey(o.place)) ?? 0) + 1);
      continue;
    }
    const ids = [...new Set(tagsIn(o.text))];
    const own = ids.filter((id) => byId.has(id) && placeKey(byId.get(id)!.place) === placeKey(o.place));
    // A confirm tool's result or cancellation follows its question (the answer): in its place, never an answer.
    if (isApprovalFollowUp(o.text) && own.length === ids.length) continue;
    if (ids.length === 0 && sentTwiceAllowed.has(placeKey(o.place)) && o.text.length < OPENING_MAX_CHARS) {
      // A group answer's first words posted and their response lost: the retry cannot find that message to edit
      // it (docs/platforms/telegram.md#exactly-once), so it stays as it opened, beside the answer or the apology.
      openingsLeft++;
      continue;
    }
    if (own.length !== 1 || ids.length !== 1) {
      misplaced++;
      problems.push(`misplaced: ${placeKey(o.place)} got ${JSON.stringify(o.text.slice(0, 120))}`);
      continue;
    }
    answers.set(own[0]!, (answers.get(own[0]!) ?? 0) + 1);
  }
  const seenAt = (p: Place) =>
    JSON.stringify(outputs.filter((o) => placeKey(o.place) === placeKey(p)).map((o) => o.text.slice(0, 70)));
  const f = {
    accepted: 0,
    answered_once: 0,
    apologized: 0,
    answered_twice: 0,
    twice_as_platform_allows: openingsLeft,
    unanswered: 0,
    misplaced,
  };
  const allowedTwice = (c: Conversation, n: number) => n === 2 && sentTwiceAllowed.has(placeKey(c.place));
  const byPlace = new Map<string, Conversation[]>();
  for (const c of conversations) byPlace.set(placeKey(c.place), [...(byPlace.get(placeKey(c.place)) ?? []), c]);
  for (const [place, convs] of byPlace) {
    let sorry = apologies.get(place) ?? 0;
    // Apologies go to accepted triggers first: those are owed one.
    const owed = (c: Conversation) => (accepted.has(c.messages.find((m) => m.trigger)!.word) ? 0 : 1);
    for (const c of [...convs].sort((a, b) => owed(a) - owed(b))) {
      const trigger = c.messages.find((m) => m.trigger)!;
      const n = answers.get(c.id) ?? 0;
      if (!accepted.has(trigger.word)) {
        // Not accepted (the platform saw a failure): nothing is owed, but what came is one answer or one apology.
        if (n === 0 && sorry > 0) sorry--;
        if (n > 1 && !allowedTwice(c, n)) {
          f.answered_twice++;
          problems.push(`answered_twice: conversation ${c.id} (not accepted) got ${n}`);
        }
        continue;
      }
      f.accepted++;
      if (n === 1) f.answered_once++;
      else if (allowedTwice(c, n)) f.twice_as_platform_allows++;
      else if (n > 1) {
        f.answered_twice++;
        problems.push(`answered_twice: conversation ${c.id} (${c.kind}) got ${n} answers: ${seenAt(c.place)}`);
      } else if (sorry > 0) {
        sorry--;
        f.apologized++;
      } else {
        f.unanswered++;
        problems.push(`unanswered: conversation ${c.id} (${c.kind}) at ${placeKey(c.place)}`);
      }
    }
    // An apology whose send was carried out and its answer lost is sent again where the platform cannot look for it.
    if (sorry === 1 && sentTwiceAllowed.has(place)) f.twice_as_platform_allows++;
    else if (sorry > 0) {
      f.answered_twice += sorry;
      problems.push(`answered_twice: ${sorry} apolog(ies) too many at ${place}: ${seenAt(convs[0]!.place)}`);
    }
  }
  return f;
}

/** Every key that matches the pattern (a SCAN to its end). */
export async function scanKeys(redis: Pick<Redis, "scan">, match: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | number = 0;
  do {
    const [next, found]: [string | number, string[]] = await redis.scan(cursor, { match, count: 1000 });
    keys.push(...found);
    cursor = next;
  } while (String(cursor) !== "0");
  return keys;
}

/** Every accepted message of a conversation whose trigger was accepted is in that conversation's log. */
export async function checkRecords(
  redis: Pick<Redis, "scan" | "zrange">,
  keyPrefix: string,
  conversations: readonly Conversation[],
  accepted: ReadonlySet<string>,
  problems: string[],
) {
  const logs: [string, string][] = [];
  for (const key of await scanKeys(redis, `${keyPrefix}:conv:*:log`))
    logs.push([key, JSON.stringify(await redis.zrange(key, 0, -1))]);
  let lost = 0;
  let misplaced = 0;
  for (const c of conversations) {
    if (!accepted.has(c.messages.find((m) => m.trigger)!.word)) continue;
    for (const m of c.messages) {
      if (!accepted.has(m.word)) continue;
      const found = logs.filter(([, members]) => members.includes(m.word));
      if (found.length === 0) {
        lost++;
        problems.push(`lost_record: ${m.word} of conversation ${c.id} (${c.kind})`);
      } else if (
        c.place.platform === "slack" &&
        !found.every(([key]) => key.includes(`|${c.place.tenant}|${c.place.channel}`))
      ) {
        misplaced++;
        problems.push(
          `misplaced record: ${m.word} of ${c.place.tenant}/${c.place.channel} in ${found.map(([k]) => k).join(", ")}`,
        );
      }
    }
  }
  return { lost, misplaced };
}
