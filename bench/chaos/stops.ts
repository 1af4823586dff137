/**
 * @module
 * bench/chaos's Stop (issue 38): a few conversations of the soak (top-level Slack channel answers, Discord `/ask`
 * answers, Telegram group answers, without a tool ask) get a slow answer (about ten seconds, `[[local-model …]]`),
 * so that it grows in its message with a Stop button, under the run's faults. While time is driven, a watcher finds
 * each growing answer's Stop as the platform's fake shows it and, once it shows the conversation's tag, has the
 * asker press it (bench/load/presses.ts), as
 * each platform sends a press (./send.ts): a third of them twice (a double click), a third delivered again (Discord
 * and Telegram; Slack never redelivers a press). Afterwards, from what each fake shows: `stopped`, the answers that
 * end with "(stopped by …)"; `stop_continued`, a promise counter, the answers that show their Stop once they ended,
 * or text after their stop note. That each was answered once, never twice, is the soak's own check (./checks.ts).
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import { discordPressBody, slackPressBody, telegramPressUpdate, type ShownButton } from "../load/presses.ts";
import { TELEGRAM_BOT } from "../load/telegram-traffic.ts";
import { json, origin } from "./checks.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import { deliverAsPlatform, type Sender, type SendStats } from "./send.ts";

/**
 * The local model's own answer (it quotes the trigger, tag and all: ./checks.ts tells answers apart by their tags),
 * written slowly: about ten seconds where a growing answer shows once a second (Slack, Discord), about twenty in a
 * Telegram group, which shows it every three.
 */
const paceOf = (platform: string) => ` [[local-model tps=${platform === "telegram" ? 4 : 8} first_ms=100]]`;
const STOPS_PER_PLATFORM = 2;
const POLL_MS = 250;
const STOP_NOTE = /\(stopped by [^)]+\)_?\s*$/;
/** The kinds whose answer grows in a message that carries a Stop button (a Slack thread has Slack's own Stop). */
const STOPPABLE = new Set(["slack_channel", "discord_guild", "discord_dm", "telegram_group"]);
/** What ./tool-asks.ts adds to a trigger that asks for a tool: its answer is a lookup's, or an approval's question. */
const TOOL_ASK = /lookup_ticket|please file it as ticket-/;

/** What a place's answer shows now: its text, the Stop it carries (if any), and how to press it as the asker. */
interface Shown {
  text: string;
  stop?: ShownButton;
  press: (stop: ShownButton) => Promise<InboundMessage | null>;
}

interface StopCase {
  c: Conversation;
  /** The trigger, parsed: where the answer goes and who asked. */
  trigger: Record<string, unknown>;
  pressed: boolean;
}

export interface StopFigures {
  stop_cases: number;
  stop_clicks: number;
  stopped: number;
  stop_continued: number;
}

/** A trigger as each platform sends it, as far as its text: a Slack event, a Discord `/ask`, a Telegram update. */
type PacedBody = Record<string, unknown> & {
  event?: { text: string };
  data?: { options: { value: string }[] };
  message?: { text: string };
};

/** Picks the cases and paces their answers (before they are sent): the trigger's text gets the pace marker. */
export function pickStopCases(conversations: readonly Conversation[]): StopCase[] {
  const cases: StopCase[] = [];
  const counts: Record<string, number> = {};
  for (const c of conversations) {
    const trigger = c.messages[0]!;
    const body = trigger.slackBody ?? trigger.discordBody ?? trigger.telegramUpdate;
    if (!STOPPABLE.has(c.kind) || !body || TOOL_ASK.test(body)) continue;
    const taken = (counts[c.place.platform] ?? 0) + 1;
    counts[c.place.platform] = taken;
    if (taken > STOPS_PER_PLATFORM) continue;
    const parsed = JSON.parse(body) as PacedBody;
    const pace = paceOf(c.place.platform);
    if (parsed.event) parsed.event.text += pace;
    else if (parsed.data) parsed.data.options[0]!.value += pace;
    else if (parsed.message) parsed.message.text += pace;
    const paced = JSON.stringify(parsed);
    if (trigger.slackBody) trigger.slackBody = paced;
    else if (trigger.discordBody) trigger.discordBody = paced;
    else trigger.telegramUpdate = paced;
    cases.push({ c, trigger: parsed, pressed: false });
  }
  return cases;
}

async function slackShown(s: Sender, k: StopCase): Promise<Shown | null> {
  type Block = { block_id?: string; elements?: { action_id?: string; value?: string }[] };
  type Message = { team: string; channel: string; ts: string; text?: string; bot_id?: string; blocks?: Block[] };
  const messages = await json<Message[]>(`${s.slackControl}/__messages`);
  const m = messages.find((x) => x.bot_id && x.team === k.c.place.tenant && x.channel === k.c.place.channel);
  if (!m) return null;
  const button = m.blocks?.find((b) => b.block_id === "parley_stop")?.elements?.[0];
  const user = (k.trigger as { event: { user: string } }).event.user;
  return {
    text: m.text ?? "",
    ...(button
      ? {
          stop: {
            slack: {
              block_id: "parley_stop",
              action_id: button.action_id ?? "stop",
              ...(button.value ? { value: button.value } : {}),
            },
          },
        }
      : {}),
    press: async (stop) => ({
      word: `${k.c.tag}-stop`,
      trigger: false,
      slackPress: slackPressBody({ team: m.team, channel: m.channel, user, ts: m.ts }, stop),
    }),
  };
}

async function discordShown(s: Sender, k: StopCase): Promise<Shown | null> {
  const fake = origin(s.discordFake);
  const edits = await json<{ route: string; token?: string; id?: string }[]>(`${fake}/__calls`);
  const id = edits.find((e) => e.route === "edit_original" && e.token === k.c.place.channel)?.id;
  if (!id) return null;
  type Row = { components: { custom_id?: string }[] };
  const shown = await json<{ message: { id: string; content: string; components?: Row[] } }[]>(`${fake}/__messages`);
  const m = shown.find((x) => x.message.id === id)?.message;
  if (!m) return null;
  const customId = m.components?.[0]?.components[0]?.custom_id;
  const ask = k.trigger as {
    channel_id: string;
    guild_id?: string;
    member?: { user: { id: string } };
    user?: { id: string };
  };
  const user = (ask.member?.user ?? ask.user)!.id;
  const at = { channelId: ask.channel_id, messageId: id, user, ...(ask.guild_id ? { guildId: ask.guild_id } : {}) };
  return {
    text: m.content,
    ...(customId?.startsWith("parley_stop:") ? { stop: { customId } } : {}),
    press: async (stop) => ({ word: `${k.c.tag}-stop`, trigger: false, discordBody: discordPressBody(at, stop) }),
  };
}

async function telegramShown(s: Sender, k: StopCase): Promise<Shown | null> {
  type Keyboard = { inline_keyboard: { callback_data: string }[][] };
  type Message = { chat_id: number; message_id: number; from: number; text?: string; reply_markup?: Keyboard };
  const messages = await json<Message[]>(`${s.telegramFake}/__messages?chat_id=${k.c.place.channel}`);
  const from = (k.trigger as { message: { from: { id: number } } }).message.from;
  const m = messages.find((x) => String(x.chat_id) === k.c.place.channel && x.from === TELEGRAM_BOT.id);
  if (!m) return null;
  const data = m.reply_markup?.inline_keyboard.flat().find((b) => b.callback_data === "parley_stop")?.callback_data;
  return {
    text: m.text ?? "",
    ...(data ? { stop: { data } } : {}),
    press: async (stop) => {
      const at = { chatId: m.chat_id, messageId: m.message_id, from: { id: from.id, first_name: "Asker" } };
      const update = await telegramPressUpdate(s.telegramFake, at, stop);
      return update === null
        ? null
        : { word: `${k.c.tag}-stop`, trigger: false, telegramUpdate: JSON.stringify(update) };
    },
  };
}

const shownOf = (s: Sender, k: StopCase) =>
  k.c.place.platform === "slack"
    ? slackShown(s, k)
    : k.c.place.platform === "discord"
      ? discordShown(s, k)
      : telegramShown(s, k);

/**
 * Watches the cases from now on, pressing each answer's Stop once it shows (each draw made as the case is pressed);
 * `finish` stops watching and reads what each answer ended as.
 */
export function watchStops(s: Sender, stats: SendStats, cases: StopCase[], random: Random) {
  let clicks = 0;
  let watching = true;
  const presses: Promise<void>[] = [];
  const click = async (m: InboundMessage | null) => {
    if (!m) return false;
    clicks++;
    return deliverAsPlatform(s, stats, m);
  };
  const pressCase = async (k: StopCase, shown: Shown, stop: ShownButton) => {
    const repeatDraw = random();
    const first = await shown.press(stop);
    await click(first);
    if (repeatDraw < 1 / 3) await click(await shown.press(stop));
    else if (repeatDraw < 2 / 3 && k.c.place.platform !== "slack") await click(first);
  };
  const watched = (async () => {
    while (watching && cases.some((k) => !k.pressed)) {
      for (const k of cases.filter((x) => !x.pressed)) {
        const shown = await shownOf(s, k).catch(() => null);
        // Once the answer shows its tag (a stopped answer is still told apart from the others), and before it ends.
        if (!shown?.stop || !shown.text.includes(k.c.tag)) continue;
        k.pressed = true;
        // Pressed beside the watch: a press's retries wait, and the other answers grow meanwhile.
        presses.push(pressCase(k, shown, shown.stop));
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    async finish(problems: string[]): Promise<StopFigures> {
      watching = false;
      await watched;
      await Promise.all(presses);
      let stopped = 0;
      let continued = 0;
      for (const k of cases) {
        const shown = await shownOf(s, k);
        if (!shown) continue;
        const note = shown.text.search(/\(stopped by /);
        if (STOP_NOTE.test(shown.text)) stopped++;
        if (shown.stop || (note >= 0 && !STOP_NOTE.test(shown.text))) {
          continued++;
          const how = shown.stop ? "still shows its Stop" : "grew past its stop note";
          problems.push(`stop_continued: ${k.c.tag} (${k.c.kind}) ${how}`);
        }
      }
      return { stop_cases: cases.length, stop_clicks: clicks, stopped, stop_continued: continued };
    },
  };
}
