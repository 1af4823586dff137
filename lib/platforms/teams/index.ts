/**
 * @module
 * Microsoft Teams as a platform adapter: a bot registered with the Bot Framework (an Azure Bot resource or the Teams
 * developer portal), its activities verified by the Bot Connector's bearer token, in channels (each reply chain a
 * conversation), group chats and 1:1 chats. Answers go out through the Bot Connector with the bot's token (a reply in
 * the question's reply chain, in parts), shown as they are written by replacing the posted message, with "typing" as
 * the working sign; pasted images and files are read by the answer (./files.ts). History: the Bot Connector reads
 * none (Microsoft Graph would, with resource-specific consent, not used yet): what the ingest script kept of the chat.
 * A confirm tool's question carries Approve and Cancel on an Adaptive Card (./controls.ts).
 */
import type { NoExtra, PlatformAdapter } from "../adapter.ts";
import { jsonBody } from "../json-body.ts";
import { teamsFiles } from "./files.ts";
import { teamsControls } from "./controls.ts";
import { TEAMS_MAX_MESSAGE_CHARS, teamsFormat, teamsMarkdown } from "./format.ts";
import { parseTeamsActivity } from "./parse.ts";
import { sendTeamsReply } from "./send.ts";
import { type TeamsSettings, teamsSettings } from "./settings.ts";
import { teamsStreaming } from "./stream.ts";
import { type TeamsTarget, teamsTargetSchema } from "./target.ts";
import { verifyTeamsRequest } from "./verify.ts";
import { teamsWorking } from "./working.ts";

/** Its `platform` kept literal: the adapter list (../index.ts) is keyed by it. */
export const teams = {
  platform: "teams" as const,
  settings: teamsSettings,
  replyTargetSchema: teamsTargetSchema,

  verify: verifyTeamsRequest,

  parse(ctx, request) {
    const body = jsonBody(request.rawBody);
    if (!body.ok) return { kind: "invalid", issues: body.issues };
    return parseTeamsActivity(body.value, ctx.settings.BOT_NAME, ctx.now());
  },

  ingestOptions: () => ({ keepHistory: true }),

  send: sendTeamsReply,

  // Every activity says whether its chat is a 1:1 one; a job asks only for a message that did not.
  placeVisibility: async () => "private",

  readHistory: async (ctx, query) => ({ messages: await ctx.kept(query) }),
  streaming: teamsStreaming,
  working: teamsWorking,
  files: teamsFiles,
  format: teamsFormat,
  // Only by its buttons: Parley reads no reactions on Teams. The question is one message (the outcome goes in its
  // card, not its text); what follows is a new message in the same reply chain.
  approvals: {
    way: "press",
    showsWhole: (question: string) => teamsMarkdown(question).length <= TEAMS_MAX_MESSAGE_CHARS,
    followUp: (target: TeamsTarget) => target,
    controls: teamsControls,
  },
} satisfies PlatformAdapter<TeamsTarget, NoExtra, TeamsSettings>;
