/**
 * @module
 * What a Slack Web API method of the fake works with: the calling team (from its token), the arguments, the
 * fake's state, and its answer in Slack's shape (`{ok: true, ...}` or `{ok: false, error}`, both HTTP 200).
 */
import type { AssistantThreads } from "./assistant.ts";
import type { Ephemerals } from "./ephemerals.ts";
import type { MessageStore } from "./messages.ts";
import type { SlackPeople } from "./roles.ts";
import type { SlackParams } from "./request.ts";
import type { SlackSettings } from "./settings.ts";
import type { SlackTeam, Workspaces } from "./workspaces.ts";

/** Public (C), private (G) and direct (D) conversation ids; anything else is unknown to the workspace. */
export const CHANNEL_SHAPE = /^[CGD][A-Z0-9]{2,}$/;

/** One message the fake accepted through chat.postMessage, i.e. what people would see in Slack (`GET /__calls`). */
export interface RecordedSlackPost extends Record<string, unknown> {
  channel: string;
  text: string;
  thread_ts?: string;
  ts: string;
  /** The team of the token that posted it. */
  team: string;
  /** `markdown` when it came as markdown_text, else `mrkdwn`. */
  markup: "mrkdwn" | "markdown";
  metadata?: unknown;
}

export interface SlackState {
  messages: MessageStore;
  workspaces: Workspaces;
  assistant: AssistantThreads;
  /** Admins, owners and channel creators (./roles.ts). */
  people: SlackPeople;
  /** What chat.postEphemeral showed one person (./ephemeral.ts). */
  ephemerals: Ephemerals;
  settings(): SlackSettings;
  recordPost(post: RecordedSlackPost): void;
}

export interface MethodContext {
  team: SlackTeam;
  token: string;
  params: SlackParams;
  now: number;
  state: SlackState;
}

export type SlackAnswer = { ok: boolean; [field: string]: unknown };
export type SlackMethod = (ctx: MethodContext) => SlackAnswer;

export const refusal = (error: string): SlackAnswer => ({ ok: false, error });

/** The bot's own fields on a message it posts. */
export const botAuthor = (team: SlackTeam) => ({ user: team.botUserId, bot_id: team.botId });
