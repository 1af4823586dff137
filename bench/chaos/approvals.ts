/**
 * @module
 * bench/chaos's approvals (docs/tools.md, "Actions that need approval"): once the questions that ask to run the
 * confirm-only create_ticket are up on Slack, in Discord guilds and by text, the person who asked answers each as
 * the seed draws it: yes (half of them; a third of those also sent again, as a redelivery, and a second way), no
 * (a quarter), or never (the question expires). On Slack a ✅ (✔️ the second way) or ❌ through the Slack webhook
 * like any event, retried by Slack when not acknowledged; on Discord the same reactions through the Gateway; by
 * text a YES or NO through the Twilio webhook, which Twilio does not retry; all under the run's faults. Afterwards,
 * from the tool server's count of create_ticket by idempotency key and the title each carried (which holds the
 * conversation's tag): every call is of a conversation whose asker approved (`unapproved_calls` otherwise), and
 * none was done twice, under two keys (`confirmed_twice`); a key sent again (`confirmed_repeats`) is the server's
 * to drop.
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import type { ToolServerCalls } from "../../dev/tools/server.ts";
import { APPROVAL_TAG } from "../../lib/notices.ts";
import { DISCORD_APPLICATION_ID, SLACK_BOT_USER_ID, TWILIO_ACCOUNT_SID, TWILIO_NUMBER } from "../load/traffic.ts";
import { json, origin } from "./checks.ts";
import type { Conversation } from "./plan.ts";
import { deliverAsPlatform, type Sender, type SendStats } from "./send.ts";

export interface ApprovalsSent {
  /** Questions found (on Slack, by text), asking to run create_ticket. */
  questions: number;
  /** Tags of the conversations whose asker approved (whether or not it came in time). */
  approved: Set<string>;
  denied: number;
  /** Questions whose asker's answer the webhook accepted, per platform. */
  answered: { slack: number; discord: number; twilio: number };
}

interface SlackMessage {
  channel: string;
  ts: string;
  text?: string;
  bot_id?: string;
}

/** How an asker answers: yes (and how many times more, as a redelivery or a second way), or no. */
type Answer = (verdict: "approve" | "deny", n: number) => Promise<boolean>;

/** Each asker's answer as the seed draws it; `answer` delivers one (true: accepted). */
async function answerAsDrawn(
  sent: ApprovalsSent,
  platform: keyof ApprovalsSent["answered"],
  tag: string,
  random: Random,
  answer: Answer,
): Promise<void> {
  sent.questions++;
  let answered = false;
  const send = async (verdict: "approve" | "deny", n: number) => {
    if ((await answer(verdict, n)) && !answered) {
      answered = true;
      sent.answered[platform]++;
    }
  };
  const draw = random();
  if (draw < 0.5) {
    sent.approved.add(tag);
    await send("approve", 0);
    if (draw < 0.5 / 3) {
      await send("approve", 0);
      await send("approve", 1);
    }
  } else if (draw < 0.75) {
    sent.denied++;
    await send("deny", 0);
  }
}

const SLACK_REACTIONS = { approve: ["white_check_mark", "heavy_check_mark"], deny: ["x"] } as const;
const DISCORD_REACTIONS = { approve: ["✅", "✔️"], deny: ["❌"] } as const;
/** What the texter sends back: the question asks for exactly this (lib/notices.ts, approvalQuestion). */
const TEXT_REPLIES = { approve: "YES", deny: "NO" } as const;

export async function sendApprovals(
  s: Sender,
  stats: SendStats,
  conversations: readonly Conversation[],
  random: Random,
): Promise<ApprovalsSent> {
  const messages = (await (await fetch(`${s.slackControl}/__messages`)).json()) as (SlackMessage & { team: string })[];
  const sent: ApprovalsSent = {
    questions: 0,
    approved: new Set(),
    denied: 0,
    answered: { slack: 0, discord: 0, twilio: 0 },
  };
  for (const question of messages.filter((m) => m.bot_id && m.text?.startsWith(APPROVAL_TAG))) {
    const c = conversations.find(
      (conv) =>
        conv.place.platform === "slack" && conv.place.tenant === question.team && question.text!.includes(conv.tag),
    );
    if (!c) continue;
    const trigger = JSON.parse(c.messages.find((m) => m.trigger)!.slackBody!) as {
      team_id: string;
      event: { user: string };
    };
    await answerAsDrawn(sent, "slack", c.tag, random, async (verdict, n) => {
      const reaction = SLACK_REACTIONS[verdict][verdict === "approve" ? n : 0]!;
      const body = reactionBody(trigger.team_id, trigger.event.user, reaction, question, n);
      return deliverAsPlatform(s, stats, { word: `${c.tag}-${reaction}-${n}`, trigger: false, slackBody: body });
    });
  }
  await answerOnDiscord(s, sent, conversations, random);
  // A text's question is the text sent to the texter that names the tool and quotes the conversation's tag.
  const texts = (await (await fetch(`${s.twilioFake}/__calls`)).json()) as { to: string; body: string }[];
  for (const c of conversations.filter((conv) => conv.place.platform === "twilio")) {
    const asked = texts.some(
      (t) => t.to === c.place.channel && t.body.includes("create_ticket") && t.body.includes(c.tag),
    );
    if (!asked) continue;
    let sid = 0;
    await answerAsDrawn(sent, "twilio", c.tag, random, async (verdict) => {
      // Never the tag: a SID is logged (`sms_keyword`), and the tag in a log line reads as message text leaked.
      const id = `SM${c.id}Y${++sid}`.padEnd(34, "0");
      const params = Object.entries({
        ...{ MessageSid: id, SmsMessageSid: id, AccountSid: TWILIO_ACCOUNT_SID },
        ...{ From: c.place.channel, To: TWILIO_NUMBER, Body: TEXT_REPLIES[verdict], NumMedia: "0" },
      });
      return deliverAsPlatform(s, stats, { word: `${c.tag}-${verdict}-${sid}`, trigger: false, twilioParams: params });
    });
  }
  return sent;
}

/**
 * A Discord question is the edit of its `/ask`'s deferred response, in a guild (a reaction in a DM is not read); the
 * asker's reaction comes as the Gateway's MESSAGE_REACTION_ADD, which Discord never delivers again: accepted once the
 * Gateway dispatched it to the bot's session.
 */
async function answerOnDiscord(
  s: Sender,
  sent: ApprovalsSent,
  conversations: readonly Conversation[],
  random: Random,
): Promise<void> {
  const edits = await json<{ route: string; token?: string; id?: string; content?: string }[]>(
    `${origin(s.discordFake)}/__calls`,
  );
  for (const c of conversations.filter((conv) => conv.kind === "discord_guild")) {
    const question = edits.find(
      (e) => e.route === "edit_original" && e.token === c.place.channel && e.content?.startsWith(APPROVAL_TAG),
    );
    if (!question?.id) continue;
    const ask = JSON.parse(c.messages[0]!.discordBody!) as {
      channel_id: string;
      guild_id: string;
      member: { user: { id: string } };
    };
    await answerAsDrawn(sent, "discord", c.tag, random, async (verdict, n) => {
      const d = {
        ...{ user_id: ask.member.user.id, channel_id: ask.channel_id, message_id: question.id, guild_id: ask.guild_id },
        message_author_id: DISCORD_APPLICATION_ID,
        emoji: { id: null, name: DISCORD_REACTIONS[verdict][verdict === "approve" ? n : 0]! },
        burst: false,
        type: 0,
      };
      const res = await fetch(`${s.discordGateway}/__dispatch`, {
        method: "POST",
        body: JSON.stringify({ t: "MESSAGE_REACTION_ADD", d, guild_id: ask.guild_id }),
      });
      return res.ok && ((await res.json()) as { delivered: number }).delivered > 0;
    });
  }
}

/** Slack's `reaction_added` of `user` on the question, the `n`th reaction event of its kind. */
export function reactionBody(
  team: string,
  user: string,
  reaction: string,
  question: Pick<SlackMessage, "channel" | "ts">,
  n: number,
): string {
  const eventTs = `${Math.floor(Date.now() / 1000)}.${String(n).padStart(6, "0")}`;
  return JSON.stringify({
    token: "legacy",
    team_id: team,
    api_app_id: "A0CHAOS",
    type: "event_callback",
    event_id: `Ev${team}${question.ts.replace(".", "")}${reaction}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: "reaction_added",
      user,
      reaction,
      item_user: SLACK_BOT_USER_ID,
      item: { type: "message", channel: question.channel, ts: question.ts },
      event_ts: eventTs,
    },
    authorizations: [
      { enterprise_id: null, team_id: team, user_id: SLACK_BOT_USER_ID, is_bot: true, is_enterprise_install: false },
    ],
  });
}

export interface ConfirmFigures {
  /** create_ticket idempotency keys the tool server received. */
  confirmed_calls: number;
  /** Approvals whose action reached the tool server under more than one key (done twice): must be 0. */
  confirmed_twice: number;
  /** Calls that repeated a key already received (a continuation that died during its call): dropped by the server. */
  confirmed_repeats: number;
  /** create_ticket calls of conversations whose asker never sent a ✅: must be 0. */
  unapproved_calls: number;
}

export function checkConfirmCalls(
  calls: ToolServerCalls,
  approved: ReadonlySet<string>,
  problems: string[],
): ConfirmFigures {
  const keys = Object.entries(calls.createTitles);
  const keysOf = (tag: string) => keys.filter(([, title]) => title.includes(tag));
  const twice = [...approved].filter((tag) => keysOf(tag).length > 1);
  const unapproved = keys.filter(([, title]) => ![...approved].some((tag) => title.includes(tag)));
  for (const tag of twice)
    problems.push(
      `confirmed_twice: conversation ${tag}'s create_ticket reached the tool server under ${keysOf(tag).length} keys`,
    );
  for (const [, title] of unapproved)
    problems.push(`unapproved: create_ticket "${title.slice(0, 60)}" reached the tool server without a ✅`);
  const repeats = keys.reduce((sum, [key]) => sum + Math.max(0, (calls.byKey[key] ?? 0) - 1), 0);
  return {
    confirmed_calls: keys.length,
    confirmed_twice: twice.length,
    confirmed_repeats: repeats,
    unapproved_calls: unapproved.length,
  };
}
