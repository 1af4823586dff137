/**
 * @module
 * Reads what the bot posted from the platform fakes and turns it into chat entries, as the person would see it
 * now, drawn as the platform's client draws it (./views/): Slack messages (channel or thread, in the workspace they
 * were posted in) from the fake's message store, where a streamed or edited answer holds its latest text, with
 * every message's reactions (the bot's working sign on a person's message, a person's ✅); Discord channel messages
 * and their edits, edits of the "thinking…" message and follow-ups, from `/__calls`; texts to phones; and
 * Telegram's (./telegram-posts.ts), Google Chat's (./google-chat-posts.ts) and Teams' (./teams-posts.ts).
 */
import { z } from "zod";
import { DISCORD_PLACE, PEOPLE, SLACK_CHANNEL } from "./people.ts";
import { collectGoogleChatPosts } from "./google-chat-posts.ts";
import { collectSlackEphemerals, drawBlocks, slackBlocks } from "./slack-blocks.ts";
import type { TeamsChats } from "./send-teams.ts";
import { collectTeamsPosts } from "./teams-posts.ts";
import { collectDiscordControls } from "./discord-controls.ts";
import { collectTelegramPosts } from "./telegram-posts.ts";
import type { Timeline } from "./timeline.ts";
import { DISCORD_MARKDOWN, markdownView, SLACK_MARKDOWN } from "./views/markdown-view.ts";
import { mrkdwnView } from "./views/mrkdwn-view.ts";
import { plainView } from "./views/view.ts";

export interface FakeOrigins {
  slack: string;
  discord: string;
  twilio: string;
  telegram: string;
  googleChat: string;
  teams: string;
}

const CALLS_PATH = "/__calls";
const MESSAGES_PATH = "/__messages";

const slackMessage = z.looseObject({
  team: z.string(),
  channel: z.string(),
  user: z.string(),
  text: z.string(),
  ts: z.string(),
  thread_ts: z.string().optional(),
  bot_id: z.string().optional(),
  markup: z.enum(["mrkdwn", "markdown"]).optional(),
  reactions: z.array(z.object({ name: z.string(), users: z.array(z.string()) })).default([]),
  blocks: slackBlocks,
});
const discordCall = z.looseObject({
  route: z.string(),
  id: z.string().optional(),
  token: z.string().optional(),
  channelId: z.string().optional(),
  content: z.string().optional(),
});
const twilioText = z.looseObject({ to: z.string(), from: z.string(), body: z.string(), sid: z.string() });

async function calls<T extends z.ZodType>(origin: string, schema: T, path = CALLS_PATH): Promise<z.output<T>[]> {
  const res = await fetch(`${origin}${path}`);
  if (!res.ok) throw new Error(`${origin}${path} answered ${res.status}`);
  return z.array(schema).parse(await res.json());
}

export async function collectBotPosts(
  timeline: Timeline,
  fakes: FakeOrigins,
  place: { botName: string; twilioAccountSid: string; teamsChats?: () => TeamsChats | undefined },
): Promise<void> {
  const [slack, discord, twilio] = await Promise.all([
    calls(fakes.slack, slackMessage, `${MESSAGES_PATH}?channel=${SLACK_CHANNEL}`),
    calls(fakes.discord, discordCall),
    calls(fakes.twilio, twilioText),
  ]);
  const now = Date.now();
  const bots = new Set(slack.filter((post) => post.bot_id).map((post) => post.user));
  const nameOf = (user: string) =>
    bots.has(user) ? place.botName : (PEOPLE.find((p) => p.slackUserId === user)?.name ?? user);
  for (const post of slack) {
    const id = `${post.channel}:${post.ts}`;
    if (timeline.forgot(id)) continue;
    const shown = timeline.entries.find((e) => e.id === id && e.workspace === post.team);
    const reactions = post.reactions.map((r) => ({ emoji: slackEmoji(r.name), by: r.users.map(nameOf) }));
    if (!post.bot_id) {
      // A person's message: the page shows it as it was typed; its reactions come from Slack.
      if (shown) shown.reactions = reactions;
      continue;
    }
    // Slack draws a message's blocks, when it has them, and its text only as the notification's.
    const drawn = drawBlocks(post.blocks, nameOf);
    const view = drawn.view ?? slackView(post.text, post.markup, nameOf);
    const blocks = { controls: drawn.controls, ...(drawn.note !== undefined ? { note: drawn.note } : {}) };
    if (shown) {
      Object.assign(shown, { text: post.text, view, reactions, ...blocks });
      if (drawn.note === undefined) delete shown.note;
      continue;
    }
    timeline.add({
      id,
      platform: "slack",
      author: place.botName,
      bot: true,
      text: post.text,
      view,
      reactions,
      ...blocks,
      at: now,
      // The workspace of the token the bot posted with: an answer with another workspace's token shows up there.
      place: `slack|${post.team}|${post.channel}|${post.thread_ts ?? ""}`,
      workspace: post.team,
      ts: post.ts,
      ...(post.thread_ts ? { threadTs: post.thread_ts } : {}),
    });
  }
  await collectSlackEphemerals(timeline, fakes.slack, place.botName, nameOf);
  for (const call of timeline.takeNewCalls("discord", discord)) {
    // An answer in #general, or in one of its threads (someone wrote there first).
    const inThread =
      call.channelId !== DISCORD_PLACE.channel && timeline.entries.some((e) => e.threadId === call.channelId);
    // A streamed answer grows by edits of the message it was posted as.
    const edited = call.route === "edit_message" ? timeline.entries.find((e) => e.bot && e.id === call.id) : undefined;
    if (edited && call.content !== undefined) {
      Object.assign(edited, { text: call.content, view: markdownView(call.content, DISCORD_MARKDOWN) });
      continue;
    }
    if (
      call.route === "channel_message" &&
      (call.channelId === DISCORD_PLACE.channel || inThread) &&
      call.content !== undefined
    ) {
      timeline.add({
        id: call.id ?? `discord-${now}`,
        platform: "discord",
        author: place.botName,
        bot: true,
        text: call.content,
        view: markdownView(call.content, DISCORD_MARKDOWN),
        at: now,
        place: `discord|${DISCORD_PLACE.guild}|${call.channelId}|`,
        ...(inThread && call.channelId ? { threadId: call.channelId } : {}),
      });
      continue;
    }
    const asked = call.token ? timeline.findByInteractionToken(call.token) : undefined;
    if (!asked || call.content === undefined) continue;
    const answer = {
      id: call.id ?? `${asked.id}:answer`,
      platform: "discord" as const,
      author: place.botName,
      bot: true,
      text: call.content,
      view: markdownView(call.content, DISCORD_MARKDOWN),
      at: now,
      place: `discord|${DISCORD_PLACE.guild}|${DISCORD_PLACE.channel}|`,
    };
    // The deferred "thinking…" message is the one @original edits; follow-ups are new messages.
    const thinking = timeline.entries.find((e) => e.bot && e.interactionToken === call.token);
    if (call.route === "edit_original" && thinking)
      Object.assign(thinking, { text: call.content, view: answer.view, pending: false, id: answer.id });
    else timeline.add(answer);
  }
  await collectDiscordControls(timeline, fakes.discord);
  await collectTelegramPosts(timeline, fakes.telegram, place.botName);
  await collectGoogleChatPosts(timeline, fakes.googleChat, place.botName);
  await collectTeamsPosts(timeline, fakes.teams, place.teamsChats?.(), place.botName);
  for (const text of timeline.takeNewCalls("twilio", twilio)) {
    timeline.add({
      id: text.sid,
      platform: "sms",
      author: place.botName,
      bot: true,
      text: text.body,
      view: plainView(text.body),
      at: now,
      place: `twilio|${place.twilioAccountSid}|${text.from}|${text.to}|`,
      phone: text.to,
    });
  }
}

/** A Slack message as Slack draws it: markdown_text as Markdown, anything else (`text`) as mrkdwn. */
function slackView(text: string, markup: "mrkdwn" | "markdown" | undefined, nameOf: (user: string) => string) {
  if (markup === "markdown") return markdownView(text, SLACK_MARKDOWN);
  return mrkdwnView(text, nameOf);
}

/** The emoji of the reaction names Parley and the page use; any other shows by its name, as `:name:`. */
const SLACK_EMOJI: Readonly<Record<string, string>> = {
  eyes: "👀",
  white_check_mark: "✅",
  x: "❌",
  thumbsup: "👍",
  "+1": "👍",
  thumbsdown: "👎",
  "-1": "👎",
  hourglass_flowing_sand: "⏳",
};
const slackEmoji = (name: string) => SLACK_EMOJI[name] ?? `:${name}:`;
