/**
 * @module
 * Microsoft Teams for tests in workerd: a suite env with Teams on (the fake's bot registration; the shared bindings
 * point the rest at the fake and leave Teams off, as a fresh deployment has it), channels, group chats and 1:1 chats
 * made in the fake with the bot in them, people's messages written there and handed back as the activity the Bot
 * Connector would send (the fake decides: in a channel or group chat only a mention reaches the bot), posted to the
 * Worker with their bearer token, and the bot's messages as the fake saw them.
 */
import { Redis } from "@upstash/redis/cloudflare";
import { env } from "cloudflare:workers";
import { ConversationStore } from "../../lib/conversation/store.ts";
import type { ConversationKey, StoredMessage } from "../../lib/message.ts";
import { callWorker, eventually, suiteEnv, type TestEnv } from "./worker.ts";

const TEAMS_URL = (env as unknown as Record<string, string>).TEAMS_LOGIN_URL!;
/** The fake's bot registration (dev/fakes/teams/server.ts). */
const APP_ID = "9c1e6a2d-4b7f-4e3a-8d5c-2f0b1a7e6c34";
const APP_PASSWORD = "fake-teams-app-secret";
/** The fake's tenant (dev/fakes/teams/world.ts). */
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";

export type ConversationType = "personal" | "groupChat" | "channel";

export interface Person {
  id: string;
  name: string;
}

export interface Delivery {
  body: Record<string, unknown>;
  authorization: string;
}

/** The bot's answers the suite's conversation at `key` recorded, once there are `count` of them (30 s at most). */
export function recordedAnswers(testEnv: TestEnv, suite: string) {
  const store = new ConversationStore(
    new Redis({ url: String(testEnv.UPSTASH_REDIS_REST_URL), token: String(testEnv.UPSTASH_REDIS_REST_TOKEN) }),
    { prefix: `t-${suite}`, ttlSeconds: () => 120, maxMessages: 200 },
  );
  return (key: ConversationKey, count = 1): Promise<StoredMessage[]> =>
    eventually(
      async () => {
        const found = (await store.load(key))?.recent.filter((m) => m.role === "assistant") ?? [];
        return found.length >= count ? found : undefined;
      },
      30_000,
      `${count} answer(s) recorded`,
    );
}

/** The settings that turn Teams on with the fake's bot registration. */
export const TEAMS_ON = { TEAMS_APP_ID: APP_ID, TEAMS_APP_PASSWORD: APP_PASSWORD };

/** A suite env with Teams on. */
export function teamsSuiteEnv(suite: string, overrides: TestEnv = {}): TestEnv {
  return suiteEnv(suite, { ...TEAMS_ON, ...overrides });
}

let seq = 0;
export function newPerson(name: string): Person {
  return { id: `29:1${Date.now().toString(36)}${String(seq++ % 1000).padStart(3, "0")}`, name };
}

export async function teamsControl<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${TEAMS_URL}${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`teams fake ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A channel, group chat or 1:1 chat with the bot in it; its id. */
export async function newConversation(type: ConversationType): Promise<string> {
  return (await teamsControl<{ id: string }>("/__conversation", { type })).id;
}

export interface SayOptions {
  mention?: boolean;
  /** The root of the channel's reply chain to reply in. */
  thread?: string;
  claims?: Record<string, unknown>;
  key?: "endorsed" | "unendorsed";
  /** The app holds resource-specific consent: the message reaches the bot without a mention. */
  rsc?: boolean;
  /** Pictures pasted into the message, as `pastedImage` made them. */
  attachments?: unknown[];
}

/** `from` writes `text`; its activity id, its reply chain's root (channels), and what the bot gets (null: nothing). */
export function say(
  conversation: string,
  from: Person,
  text: string,
  opts: SayOptions = {},
): Promise<{ id: string; root?: string; delivery: Delivery | null }> {
  return teamsControl("/__message", { conversation, from, text, deliver: false, ...opts });
}

/** The delivery as the Connector posts it (`authorization` replaced when given; null leaves it out). */
export function teamsRequest(delivery: Delivery, authorization: string | null = delivery.authorization): Request {
  return new Request("https://worker.test/teams/messages", {
    method: "POST",
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "User-Agent": "Microsoft-SkypeBotApi (Microsoft-BotFramework/3.0)",
      ...(authorization === null ? {} : { Authorization: authorization }),
    },
    body: JSON.stringify(delivery.body),
  });
}

export function deliver(testEnv: TestEnv, delivery: Delivery | null, authorization?: string | null): Promise<Response> {
  if (!delivery) throw new Error("the bot got no delivery for that message");
  return callWorker(testEnv, teamsRequest(delivery, authorization));
}

export interface BotActivity {
  id: string;
  conversation: string;
  root?: string;
  text: string;
  replyToId?: string;
  /** Its Adaptive Cards as they show (dev/fakes/teams/card-rules.ts). */
  cards?: { version: string; body?: Record<string, unknown>[]; actions?: Record<string, unknown>[] }[];
  /** `stream`: an update of Teams' stream of the message; `final`: the message that ended it. */
  revisions: { at: number; method: "post" | "put" | "stream" | "final"; text: string; textFormat?: string }[];
}

/** The bot's messages in a conversation (its chat id), oldest first. */
export function botMessages(conversation: string): Promise<BotActivity[]> {
  return teamsControl(`/__activities?conversation=${encodeURIComponent(conversation)}`);
}

/** The conversation key of a chat (and of a channel's reply chain). */
export function place(conversation: string, thread?: string): ConversationKey {
  return { platform: "teams", tenant: TENANT, channel: conversation, ...(thread ? { thread } : {}) };
}

/** A picture someone pastes into a message: the attachment to pass to `say`. */
export function pastedImage(upload: Record<string, unknown>): Promise<unknown> {
  return teamsControl("/__files", upload);
}

/** `who` clicks the button of `control` on the bot's message `activity`: the invoke Teams sends, not yet posted. */
export async function click(conversation: string, activity: string, who: Person, control: string): Promise<Delivery> {
  return (await teamsControl<{ delivery: Delivery }>("/__click", { conversation, activity, from: who, control }))
    .delivery;
}

/** Hands Teams the Worker's answer to a click's invoke: what Teams did with it (`refused` when it took none). */
export async function answerInvoke(activity: string, res: Response): Promise<Record<string, unknown>> {
  const body: unknown = await res.clone().json();
  return teamsControl("/__invoke-answer", { activity, status: res.status, body });
}

/** `by` takes the bot out of a conversation: the two deliveries Teams sends of that, not yet posted. */
export async function removeBot(conversation: string, by: Person): Promise<Delivery[]> {
  const { deliveries } = await teamsControl<{ deliveries: Delivery[] }>("/__remove", {
    conversation,
    from: { id: by.id },
    deliver: false,
  });
  return deliveries;
}
