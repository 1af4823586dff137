/**
 * @module
 * What the page's "Send" does: the chosen person's message goes to the Worker as its platform would deliver it
 * (Slack in the chosen workspace, Discord as a channel message or `/ask`, SMS from the person's phone, Telegram
 * and Google Chat through their fakes, which deliver it to the Worker's webhook as the platform does), and goes
 * into the timeline where the page shows it.
 */
import { z } from "zod";
import type { FakeOrigins } from "./bot-posts.ts";
import { attachmentSchema, pasteIntoFake } from "./attach.ts";
import {
  DISCORD_PLACE,
  PEOPLE,
  personByHandle,
  SLACK_CHANNEL,
  type SimulatedPerson,
  type SlackWorkspace,
} from "./people.ts";
import { sendAskCommand } from "./send-discord.ts";
import { sendDiscordMessage } from "./send-discord-message.ts";
import { sendSlackMessage } from "./send-slack.ts";
import { isSlashCommand, sendSlackSlash } from "./send-slash.ts";
import { sendSms } from "./send-sms.ts";
import { googleChatNameOf } from "./google-chat-posts.ts";
import { sendGoogleChat } from "./send-google-chat.ts";
import { sendTelegram, telegramPlace } from "./send-telegram.ts";
import type { ChatEntry, Timeline } from "./timeline.ts";
import { sendTeams, type TeamsChats } from "./send-teams.ts";
import { DISCORD_MARKDOWN, markdownView, TEAMS_MARKDOWN } from "./views/markdown-view.ts";
import { googleChatTextView, mrkdwnView } from "./views/mrkdwn-view.ts";

export const sendRequest = z
  .object({
    platform: z.enum(["slack", "discord", "sms", "telegram", "google-chat", "teams"]),
    person: z.string(),
    /** May be empty when a file is attached. */
    text: z.string().trim().max(4_000),
    /** A picture or file pasted with the message ([files](../../docs/files.md)). */
    attachment: attachmentSchema.optional(),
    /** Slack: the workspace (team id) to write in; the first one when not given. */
    workspace: z.string().optional(),
    threadTs: z.string().optional(),
    /** Discord: the thread (the id of the message it was started from) to write in; always a channel message. */
    threadId: z.string().regex(/^\d+$/).optional(),
    /** Discord: a channel message through the Gateway, or the `/ask` command. */
    discordMode: z.enum(["message", "ask"]).default("ask"),
    /** Telegram: the group's General topic, its forum topic, or the person's private chat with the bot. */
    telegramSpot: z.enum(["general", "topic", "private"]).default("general"),
    /** Google Chat: the space (a message at the top starts a thread) or the person's DM with the app. */
    googleChatSpot: z.enum(["space", "dm"]).default("space"),
    /** Teams: the channel (a post at the top starts a reply chain), the group chat or the person's 1:1 chat. */
    teamsSpot: z.enum(["channel", "group", "dm"]).default("channel"),
  })
  .refine((r) => r.text.length > 0 || r.attachment, { message: "write something or attach a file", path: ["text"] });
export type SendRequest = z.output<typeof sendRequest>;

export interface SendContext {
  workerUrl: string;
  fakes: FakeOrigins;
  discordGatewayControlUrl?: string;
  timeline: Timeline;
  botName: string;
  setting(name: string): string;
  /** The Slack workspaces the page has (installed, or the single token's); throws while there are none yet. */
  slackWorkspaces(): SlackWorkspace[];
  /** The Telegram group's forum topic; throws while the chats are still being made. */
  telegramTopic(): number;
  /** The Teams conversations the fake made; throws while they are still being made. */
  teamsChats(): TeamsChats;
}

export async function send(ctx: SendContext, body: SendRequest): Promise<ChatEntry> {
  const person = personByHandle(body.person);
  if (!person)
    throw new z.ZodError([{ code: "custom", path: ["person"], message: "unknown person", input: body.person }]);
  const [entry, ...after] = await deliver(ctx, person, body);
  for (const shown of [entry, ...after]) ctx.timeline.add(shown);
  return entry;
}

/** The person's message as the page shows it, then what shows at once after it (Discord's "thinking…"). */
async function deliver(
  ctx: SendContext,
  person: SimulatedPerson,
  body: SendRequest,
): Promise<[ChatEntry, ...ChatEntry[]]> {
  const { timeline, botName, setting } = ctx;
  const file = body.attachment;
  const shown = [body.text, ...(file ? [`📎 ${file.name}`] : [])].filter(Boolean).join("\n");
  const base = { author: person.name, bot: false, text: shown, at: Date.now() };
  if (body.platform === "slack") {
    const workspaces = ctx.slackWorkspaces();
    const workspace = workspaces.find((w) => w.team === (body.workspace ?? workspaces[0]?.team));
    if (!workspace)
      throw new z.ZodError([
        { code: "custom", path: ["workspace"], message: "unknown workspace", input: body.workspace },
      ]);
    if (isSlashCommand(body.text)) {
      const answer = await sendSlackSlash(
        { workerUrl: ctx.workerUrl, signingSecret: setting("SLACK_SIGNING_SECRET") },
        workspace,
        person,
        body.text,
      );
      const place = `slack|${workspace.team}|${SLACK_CHANNEL}|`;
      const id = `${SLACK_CHANNEL}:slash:${base.at}`;
      // Slack shows neither the command nor its ephemeral answer to anyone else.
      return [
        { ...base, id, platform: "slack", place, workspace: workspace.team, visibleTo: person.handle },
        {
          id: `${id}:answer`,
          platform: "slack",
          author: botName,
          bot: true,
          text: answer,
          view: mrkdwnView(answer),
          at: Date.now(),
          place,
          workspace: workspace.team,
          visibleTo: person.handle,
        },
      ];
    }
    const parent = body.threadTs
      ? timeline.entries.find((e) => e.workspace === workspace.team && e.ts === body.threadTs)
      : undefined;
    const thread = body.threadTs
      ? { ts: body.threadTs, parentUserId: parentUserId(parent, person.slackUserId, workspace) }
      : undefined;
    const files = file
      ? [await pasteIntoFake(ctx.fakes, { platform: "slack", team: workspace.team }, file)]
      : undefined;
    const sent = await sendSlackMessage(
      {
        workerUrl: ctx.workerUrl,
        signingSecret: setting("SLACK_SIGNING_SECRET"),
        botName,
        slackFakeUrl: ctx.fakes.slack,
      },
      workspace,
      person,
      body.text,
      thread,
      files,
    );
    return [
      {
        ...base,
        view: mrkdwnView(shown),
        id: `${SLACK_CHANNEL}:${sent.ts}`,
        platform: "slack",
        place: `slack|${workspace.team}|${SLACK_CHANNEL}|${body.threadTs ?? ""}`,
        workspace: workspace.team,
        ts: sent.ts,
        ...(body.threadTs ? { threadTs: body.threadTs } : {}),
      },
    ];
  }
  if (body.platform === "teams") {
    if (file) throw new Error("the page's Teams tab sends text only");
    const sent = await sendTeams(ctx.fakes.teams, ctx.teamsChats(), botName, person, body.text, body.teamsSpot);
    return [
      {
        ...base,
        id: sent.id,
        view: markdownView(body.text, TEAMS_MARKDOWN),
        channel: sent.chat,
        platform: "teams",
        place: sent.place,
        spot: body.teamsSpot,
      },
    ];
  }
  if (body.platform === "google-chat") {
    if (file) throw new Error("the page's Google Chat tab sends text only");
    const sent = await sendGoogleChat(ctx.fakes.googleChat, botName, person, body.text, body.googleChatSpot);
    return [
      {
        ...base,
        id: sent.message,
        view: googleChatTextView(body.text, googleChatNameOf),
        channel: sent.space,
        platform: "google-chat",
        place: sent.place,
        spot: body.googleChatSpot,
      },
    ];
  }
  if (body.platform === "telegram") {
    const where = telegramPlace(body.telegramSpot, person, ctx.telegramTopic());
    const media = file ? await pasteIntoFake(ctx.fakes, { platform: "telegram" }, file) : undefined;
    const id = await sendTelegram(ctx.fakes.telegram, botName, person, body.text, where, media);
    return [
      {
        ...base,
        id: `${where.chat}:${id}`,
        messageId: String(id),
        channel: String(where.chat),
        platform: "telegram",
        place: where.place,
        spot: body.telegramSpot,
      },
    ];
  }
  if (body.platform === "discord" && (body.discordMode === "message" || body.threadId)) {
    if (!ctx.discordGatewayControlUrl) throw new Error("no Discord Gateway fake is running: use /ask");
    const channel = body.threadId ?? DISCORD_PLACE.channel;
    const attachments = file ? [await pasteIntoFake(ctx.fakes, { platform: "discord", channel }, file)] : undefined;
    const sent = await sendDiscordMessage(
      {
        workerUrl: ctx.workerUrl,
        gatewayControlUrl: ctx.discordGatewayControlUrl,
        discordFakeUrl: ctx.fakes.discord,
        botName,
      },
      person,
      body.text,
      body.threadId,
      attachments,
    );
    return [
      {
        ...base,
        view: markdownView(shown, DISCORD_MARKDOWN),
        id: sent.id,
        platform: "discord",
        place: `discord|${DISCORD_PLACE.guild}|${channel}|`,
        ...(body.threadId ? { threadId: body.threadId } : {}),
      },
    ];
  }
  if (body.platform === "discord") {
    if (file)
      throw new z.ZodError([
        {
          code: "custom",
          path: ["attachment"],
          message: "attach a file to a channel message, not /ask",
          input: file.name,
        },
      ]);
    const sent = await sendAskCommand(
      { workerUrl: ctx.workerUrl, discordFakeUrl: ctx.fakes.discord, applicationId: setting("DISCORD_APPLICATION_ID") },
      person,
      body.text,
    );
    const place = `discord|${DISCORD_PLACE.guild}|${DISCORD_PLACE.channel}|`;
    const asked: ChatEntry = {
      ...base,
      id: sent.id,
      platform: "discord",
      place,
      text: `/ask ${body.text}`,
      interactionToken: sent.token,
    };
    const deferred =
      typeof sent.response === "object" && sent.response !== null && (sent.response as { type?: unknown }).type === 5;
    if (!deferred) return [asked];
    return [
      asked,
      {
        id: `${sent.id}:thinking`,
        platform: "discord",
        author: botName,
        bot: true,
        text: `${botName} is thinking…`,
        at: Date.now(),
        place,
        interactionToken: sent.token,
        pending: true,
      },
    ];
  }
  const accountSid = setting("TWILIO_ACCOUNT_SID");
  const botNumber = setting("TWILIO_PHONE_NUMBER");
  const media = file ? await pasteIntoFake(ctx.fakes, { platform: "sms", account: accountSid }, file) : undefined;
  const sent = await sendSms(
    {
      workerUrl: ctx.workerUrl,
      publicBaseUrl: setting("PUBLIC_BASE_URL") || ctx.workerUrl,
      accountSid,
      authToken: setting("TWILIO_AUTH_TOKEN"),
      botNumber,
    },
    person,
    body.text,
    media,
  );
  return [
    {
      ...base,
      id: sent.sid,
      platform: "sms",
      place: `twilio|${accountSid}|${botNumber}|${person.phone}|`,
      phone: person.phone,
    },
  ];
}

/**
 * Who started the thread: the workspace's bot (its Slack user id) when it wrote the parent, else the person who did.
 */
function parentUserId(parent: ChatEntry | undefined, fallback: string, workspace: SlackWorkspace): string {
  if (!parent) return fallback;
  if (parent.bot) return workspace.botUserId;
  return PEOPLE.find((p) => p.name === parent.author)?.slackUserId ?? fallback;
}
