/**
 * @module
 * A person pressing an approval question's Approve or Cancel, or a button as a message shows it (a Stop), as each
 * platform sends it (bench/load's clicks scenario, bench/chaos's approvals and stops): on Slack the documented
 * block_actions payload, form-encoded and signed, to /slack/interactions; on Discord the documented button
 * interaction (type 3, MESSAGE_COMPONENT), signed, to /discord/interactions, its presser `member.user` in a server and
 * `user` in a DM; on Telegram the fake's `POST /__press`, which opens the callback query (only for a button the
 * message shows) and gives back the `callback_query` update to deliver to /telegram/webhook; on Google Chat the fake's
 * `POST /__click`, which makes the CARD_CLICKED event of a button the card shows (held, to deliver to
 * /google-chat/events) and later takes the Worker's answer (`POST /__click-answer`), doing with it what Chat does (the
 * decision's update takes the card away).
 */
import discordFixture from "../../test/fixtures/platforms/discord/interactions-components.json" with { type: "json" };
import { slackPressForm } from "../../dev/fakes/slack/press.ts";
import { snowflake } from "../../test/support/discord.ts";
import type { HeldDelivery } from "./fake-deliveries.ts";
import { googleChatRequest } from "./google-chat-traffic.ts";
import { slackSignedRequest } from "./slack-signed.ts";
import { DISCORD_APPLICATION_ID } from "./traffic.ts";

/** The control a press names; each platform's id of it is Parley's prefix and this (Slack: this alone). */
export type PressedControl = "approve" | "cancel";
const PREFIX = "parley_approval:";
/**
 * A button as the message shows it, pressed with the ids it carries (bench/chaos's Stop): Slack's action, Discord's
 * `custom_id`, Telegram's `callback_data`.
 */
export interface ShownButton {
  slack?: { block_id: string; action_id: string; value?: string };
  customId?: string;
  data?: string;
}
type Pressed = PressedControl | ShownButton;
const shown = (control: Pressed) => (typeof control === "string" ? null : control);

/** Slack's block_actions body (`payload=` form) of `user` of team `team` pressing `control` on message `ts`. */
export function slackPressBody(
  p: { team: string; channel: string; user: string; ts: string; threadTs?: string },
  control: Pressed,
): string {
  const action = shown(control)?.slack ?? { action_id: control as PressedControl };
  return slackPressForm({ ...p, user: { id: p.user }, action });
}

/** The form `body` posted to /slack/interactions, signed now as Slack signs it. */
export function slackPressRequest(baseUrl: string, body: string): Request {
  return slackSignedRequest(`${baseUrl}/slack/interactions`, body, "application/x-www-form-urlencoded");
}

type DiscordPress = Record<string, unknown> & {
  message: Record<string, unknown>;
  data: { custom_id: string };
  member?: { user: Record<string, unknown> };
  user?: Record<string, unknown>;
  channel?: Record<string, unknown>;
};
const discordCase = (dm: boolean) =>
  discordFixture.cases.find((c) => c.name.includes(dm ? "in the bot's DM" : "Parley's Approve"))!
    .payload as unknown as DiscordPress;

/** Discord's interaction body of `user` pressing `control` on message `messageId`; a DM's without `guildId`. */
export function discordPressBody(
  p: { guildId?: string; channelId: string; messageId: string; user: string },
  control: Pressed,
): string {
  const press = structuredClone(discordCase(p.guildId === undefined));
  Object.assign(press, {
    id: snowflake(),
    application_id: DISCORD_APPLICATION_ID,
    token: `press${snowflake()}${"x".repeat(40)}`,
    channel_id: p.channelId,
    ...(p.guildId ? { guild_id: p.guildId } : {}),
  });
  Object.assign(press.member?.user ?? press.user!, { id: p.user });
  if (press.channel) press.channel.id = p.channelId;
  Object.assign(press.message, { id: p.messageId, channel_id: p.channelId });
  press.data.custom_id = shown(control)?.customId ?? `${PREFIX}${control as PressedControl}`;
  return JSON.stringify(press);
}

/** A Telegram person, as the fake's press takes them. */
export interface TelegramPresser {
  id: number;
  first_name: string;
}

/**
 * `from` presses `control` on message `messageId` of chat `chatId` in the Telegram fake at `fakeUrl`: the update
 * to deliver, or null when the fake refused (the message shows no such button any more).
 */
export async function telegramPressUpdate(
  fakeUrl: string,
  p: { chatId: number; messageId: number; from: TelegramPresser },
  control: Pressed,
): Promise<unknown> {
  const res = await fetch(`${fakeUrl}/__press`, {
    method: "POST",
    body: JSON.stringify({
      chat_id: p.chatId,
      message_id: p.messageId,
      from: p.from,
      data: shown(control)?.data ?? `${PREFIX}${control as PressedControl}`,
      deliver: false,
    }),
  });
  if (!res.ok) return null;
  const done = (await res.json()) as { deliveries: { update?: unknown }[] };
  return done.deliveries[0]?.update ?? null;
}

/** The text of the card's button that `control` names (lib/approvals/capability.ts). */
const CHAT_BUTTONS: Record<PressedControl, string> = { approve: "Approve", cancel: "Cancel" };

/** A Google Chat click, made in the fake: the event to deliver, and what to do with the Worker's answer to it. */
export interface GoogleChatClick {
  written: { delivery: HeldDelivery; request: typeof googleChatRequest };
  answered(status: number, text: string): Promise<void>;
}

/**
 * `by` clicks `control` on the card of message `message` in space `space` of the Google Chat fake at `fakeUrl`;
 * null when the fake refused (the message shows no such button any more).
 */
export async function googleChatClick(
  fakeUrl: string,
  p: { space: string; message: string; by: { name: string; displayName: string } },
  control: PressedControl,
): Promise<GoogleChatClick | null> {
  const body = JSON.stringify({ ...p, button: CHAT_BUTTONS[control], deliver: false });
  const res = await fetch(`${fakeUrl}/__click`, { method: "POST", body });
  if (!res.ok) return null;
  const { click, delivery } = (await res.json()) as { click: string; delivery: HeldDelivery };
  return {
    written: { delivery, request: googleChatRequest },
    async answered(status, text) {
      const answer = { click, status, body: parsedOrNull(text) };
      const told = await fetch(`${fakeUrl}/__click-answer`, { method: "POST", body: JSON.stringify(answer) });
      if (!told.ok) throw new Error(`the Google Chat fake refused the click's answer: ${told.status}`);
    },
  };
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
