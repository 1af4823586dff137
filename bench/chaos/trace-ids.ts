/**
 * @module
 * What ./trace.ts needs to pick a conversation's records out of a run and to write them without what people wrote:
 * the conversations a problem names, the ids a conversation is known by (its place, its messages' platform ids),
 * whether a record carries one of them, and a record cut down to its ids, kinds, statuses and times.
 */
import type { Conversation } from "./plan.ts";

/** The counter a problem line adds to (its first words, before the colon). */
const counterOf = (problem: string) => /^([a-z_]+(?: [a-z_]+)?):/.exec(problem)?.[1] ?? "invited_broken";

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `id` standing alone in `text`: not the start of a longer id (CR13 is not in CR130). */
const standsIn = (id: string, text: string) =>
  new RegExp(`(^|[^A-Za-z0-9_-])${literal(id)}($|[^A-Za-z0-9_-])`).test(text);

/** The conversations each problem names: by id, by tag or word, or by its place. */
export function affectedBy(problems: readonly string[], conversations: readonly Conversation[]) {
  const byId = new Map(conversations.map((c) => [c.id, c]));
  const affected = new Map<number, Set<string>>();
  const unattributed = new Set<string>();
  for (const problem of problems) {
    const ids = new Set<number>();
    for (const re of [/conversation (\d+)/g, /DM (\d+)/g, /kz(\d+)kz/g, /w(\d+)n\d+w/g])
      for (const m of problem.matchAll(re)) if (byId.has(Number(m[1]))) ids.add(Number(m[1]));
    if (ids.size === 0) for (const c of conversations) if (standsIn(c.place.channel, problem)) ids.add(c.id);
    for (const id of ids) affected.set(id, (affected.get(id) ?? new Set()).add(counterOf(problem)));
    if (ids.size === 0) unattributed.add(counterOf(problem));
  }
  return { affected, unattributed };
}

/** The ids a conversation is known by at the platforms and in the Worker's log lines. */
export function idsOf(c: Conversation): string[] {
  const ids = [c.place.channel, ...(c.place.thread ? [c.place.thread] : [])];
  for (const m of c.messages) {
    if (m.slackBody) ids.push((JSON.parse(m.slackBody) as { event: { ts: string } }).event.ts);
    if (m.discordBody) {
      const interaction = JSON.parse(m.discordBody) as { id: string; channel_id?: string; channel?: { id: string } };
      ids.push(interaction.id, ...[interaction.channel_id ?? interaction.channel?.id].filter((v) => v !== undefined));
    }
    const sid = m.twilioParams?.find(([k]) => k === "MessageSid")?.[1];
    if (sid) ids.push(sid);
    // Google Chat: the Worker's log lines name a space and a message by their ids, without `spaces/…/messages/`.
    const chat = JSON.stringify(m.written?.delivery.body ?? null).match(/spaces\/[^/"]+\/messages\/[^"]+/);
    if (chat) ids.push(chat[0].split("/").at(-1)!);
    // Teams: the activity's id within its chat (the Worker's message ids are `<chat>#<activity id>`).
    const activity = m.teams ? (m.written?.delivery.body as { id?: unknown } | undefined)?.id : undefined;
    if (typeof activity === "string") ids.push(activity);
  }
  if (c.place.platform === "google-chat") ids.push(c.place.channel.replace(/^spaces\//, ""));
  return ids;
}

/** Whether any field of a record carries one of `ids`. */
export function carries(record: Record<string, unknown>, ids: readonly string[]): boolean {
  return Object.values(record).some(
    (v) => (typeof v === "string" || typeof v === "number") && ids.some((id) => standsIn(id, String(v))),
  );
}

/** Fields that hold what people or the bot wrote, never kept. */
const TEXT_FIELDS = new Set(["text", "content", "body", "caption", "title", "arguments", "blocks", "entities"]);
/** What the plan writes into every text (tags, words, secrets), and phone numbers. */
const TEXT_MARKS = /kz\d+kz|w\d+n\d+w|dmsecret\d+x/;
const PHONE = /\+\d{7,}/g;

/**
 * A record with only its ids, kinds, statuses and times: no text field, no value with a space (ids have none) or a
 * word of the plan; `secrets` (a Discord interaction's token, a phone number) become their stand-ins.
 */
export function idsOnly(record: Record<string, unknown>, secrets: ReadonlyMap<string, string>) {
  const kept: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(record)) {
    if (TEXT_FIELDS.has(key)) continue;
    if (typeof value === "number" || typeof value === "boolean" || value === null) kept[key] = value;
    else if (typeof value === "string") {
      const safe = redact(value, secrets);
      if (!/\s/.test(safe) && !TEXT_MARKS.test(safe) && safe.length <= 200) kept[key] = safe;
    }
  }
  return kept;
}

export function redact(value: string, secrets: ReadonlyMap<string, string>): string {
  let out = value;
  for (const [secret, standIn] of secrets) out = out.split(secret).join(standIn);
  return out.replace(PHONE, "[phone]");
}

/** A conversation's secrets (its Discord token, its phone number) and what the trace says instead. */
export function secretsOf(c: Conversation): Map<string, string> {
  const secrets = new Map<string, string>();
  if (c.place.platform === "discord") secrets.set(c.place.channel, `interaction-token#${c.id}`);
  if (c.place.platform === "twilio") secrets.set(c.place.channel, `phone#${c.id}`);
  return secrets;
}

/**
 * A delivery's message, named without its word: `n0` (the trigger), `n2`, an approval's reaction (a Discord one is a
 * Gateway dispatch, `gateway_approve`) or a press of its control (`press:approve:stranger:7`).
 */
export function messageOf(word: string, c: Conversation): string | undefined {
  const n = new RegExp(`^w${c.id}n(\\d+)w$`).exec(word);
  if (n) return `n${n[1]}`;
  const reaction = new RegExp(`^${c.tag}-([a-z_]+)-(\\d+)$`).exec(word);
  if (reaction) return `reaction:${reaction[1]}:${reaction[2]}`;
  // A press of an approval's control (./questions.ts pressWord): which control, by the asker or a stranger.
  const press = new RegExp(`^${c.tag}-press-([a-z]+)-([a-z]+)-(\\d+)$`).exec(word);
  return press ? `press:${press[1]}:${press[2]}:${press[3]}` : undefined;
}
