/**
 * @module
 * Google Chat for tests in workerd: a suite env with Google Chat on (the audience set; the shared bindings point
 * the rest at the fake and leave it off, as a fresh deployment has it), spaces and DMs made in the fake with the app
 * in them, people's messages written there and handed back as the delivery Chat would send (the fake decides: in a
 * space only a mention or a command reaches the app), posted to the Worker with their bearer token, and what the
 * fake saw of the app. Each call names the audience and framing it signs for, so suites never share the fake's
 * settings.
 */
import { env } from "cloudflare:workers";
import type { ConversationKey } from "../../lib/message.ts";
import { callWorker, suiteEnv, type TestEnv } from "./worker.ts";

export const GOOGLE_CHAT_URL = (env as unknown as Record<string, string>).GOOGLE_CHAT_API_BASE_URL!;
export const PROJECT_NUMBER = "123456789012";
/** The app's endpoint as its connection settings would name it (tests call the Worker at this URL). */
export const ENDPOINT_URL = "https://worker.test/google-chat/events";
const EVENTS_PATH = "/google-chat/events";
/** The fake's app user (dev/fakes/google-chat/world.ts FAKE_APP_USER). */
const APP_USER = "users/100000000000000000001";

type Framing = "interaction" | "add-on";

export interface Person {
  name: string;
  displayName: string;
}

export interface Delivered {
  body: unknown;
  authorization: string;
}

/** A suite env with Google Chat on, its audience the project number unless said. */
export function googleChatSuiteEnv(suite: string, overrides: TestEnv = {}): TestEnv {
  return suiteEnv(suite, { GOOGLE_CHAT_AUDIENCE: PROJECT_NUMBER, BACKFILL_MESSAGES: "30", ...overrides });
}

let seq = 0;
export function newPerson(displayName: string): Person {
  return { name: `users/${Date.now()}${String(seq++ % 1000).padStart(3, "0")}`, displayName };
}

async function control<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${GOOGLE_CHAT_URL}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`google chat fake ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A space of threads (SPACE), a group chat or a DM with the app in it; its resource name. */
export async function newSpace(spaceType: "SPACE" | "GROUP_CHAT" | "DIRECT_MESSAGE" = "SPACE"): Promise<string> {
  return (await control<{ name: string }>("/__space", { spaceType })).name;
}

export interface SayOptions {
  mention?: boolean;
  thread?: string;
  command?: { id: number; name: string };
  attachment?: unknown[];
  framing?: Framing;
  audience?: string;
}

/** `from` writes `text` in the space; the message, its thread, and what Chat sends the app (null: nothing). */
export async function say(
  space: string,
  from: Person,
  text: string,
  opts: SayOptions = {},
): Promise<{ message: string; thread: string; delivery: Delivered | null }> {
  return control("/__message", {
    space,
    from,
    text,
    deliver: false,
    audience: PROJECT_NUMBER,
    ...opts,
  });
}

/** `by` removes the app from the space; the REMOVED_FROM_SPACE delivery. */
export async function removeApp(space: string, by: Person, opts: Pick<SayOptions, "framing" | "audience"> = {}) {
  return (
    await control<{ delivery: Delivered }>("/__remove", {
      space,
      by,
      deliver: false,
      audience: PROJECT_NUMBER,
      ...opts,
    })
  ).delivery;
}

/** A file people paste: the attachment object to pass to `say`. */
export async function pastedFile(upload: Record<string, unknown>): Promise<unknown> {
  return control("/__files", upload);
}

/**
 * `by` clicks the button whose text is `button` on the app's message `message`; the click's id and what Chat sends
 * the app. Its answer goes back to the fake with `answerClick`, which does what Chat does with it.
 */
export async function click(
  space: string,
  message: string,
  by: Person,
  button: string,
  opts: Pick<SayOptions, "framing" | "audience"> = {},
): Promise<{ click: string; delivery: Delivered }> {
  return control("/__click", { space, message, by, button, deliver: false, audience: PROJECT_NUMBER, ...opts });
}

/** What the fake's Chat did with the app's answer to a click. */
export type ClickAnswer = { applied: "updated" | "created" | "nothing" } | { refused: string };

export async function answerClick(clickId: string, res: Response): Promise<ClickAnswer> {
  return control("/__click-answer", { click: clickId, status: res.status, body: await res.json() });
}

/** Posts a delivery to the Worker as Chat does (`authorization` replaced when given; null leaves it out). */
export function chatRequest(delivery: Delivered, authorization: string | null = delivery.authorization): Request {
  return new Request(`https://worker.test${EVENTS_PATH}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "Google-Dynamite",
      ...(authorization === null ? {} : { Authorization: authorization }),
    },
    body: JSON.stringify(delivery.body),
  });
}

export async function deliver(testEnv: TestEnv, delivery: Delivered | null): Promise<Response> {
  if (!delivery) throw new Error("the app got no delivery for that message");
  return callWorker(testEnv, chatRequest(delivery));
}

export interface SeenMessage {
  name: string;
  space: string;
  thread: string;
  threadReply: boolean;
  sender: string;
  text: string;
  revisions: { at: number; method: string; chars: number; text: string }[];
  cardsV2?: { cardId?: string; card: { sections: { widgets: Record<string, unknown>[] }[] } }[];
  privateViewer?: string;
}

/** The space's messages in the fake, the app's (`byApp`) or everyone's, oldest first. */
export async function spaceMessages(space: string, byApp = true): Promise<SeenMessage[]> {
  const all = (await (await fetch(`${GOOGLE_CHAT_URL}/__messages?space=${space}`)).json()) as SeenMessage[];
  return all.filter((m) => !byApp || m.sender === APP_USER);
}

/** The conversation key of a space (its id is its tenant), and of one of its threads. */
export function place(space: string, thread?: string): ConversationKey {
  const id = space.slice("spaces/".length);
  return {
    platform: "google-chat",
    tenant: id,
    channel: id,
    ...(thread ? { thread: thread.slice(thread.lastIndexOf("/") + 1) } : {}),
  };
}
