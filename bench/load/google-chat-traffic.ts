/**
 * @module
 * Google Chat for the benches (bench/load, bench/latency, bench/chaos): the Worker's settings for the Google Chat
 * fake (its Chat API, token endpoint and key sets, one service account made for the run, events signed for the
 * fake's project number), spaces made in the fake, and people's messages written there: the fake answers with what
 * Chat would send the app (a message in a space only when it @mentions the app; every message of a DM), which is
 * posted to the Worker's endpoint with its bearer token, as Chat posts it.
 */
import { googleChatFakeSettings } from "../../dev/fakes/google-chat/settings.ts";
import { newServiceAccountKey } from "../../dev/fakes/google-chat/service-account.ts";
import { fakeControl as control, type HeldDelivery, heldDelivery, type PreparingFakes } from "./fake-deliveries.ts";
import type { PlannedMessage } from "./traffic.ts";

/** The fake's default authentication audience (dev/fakes/google-chat/server.ts). */
const PROJECT_NUMBER = "123456789012";
/** The service account the fake's token endpoint knows and the Worker signs with: made per run. */
export const GOOGLE_CHAT_ACCOUNT = newServiceAccountKey().json;

/** The Worker's Google Chat settings for a bench. */
export function googleChatVars(fakeUrl: string): Record<string, string> {
  const vars = new Map([["GOOGLE_CHAT_SERVICE_ACCOUNT", GOOGLE_CHAT_ACCOUNT]]);
  return {
    ...googleChatFakeSettings(fakeUrl, vars),
    GOOGLE_CHAT_SERVICE_ACCOUNT: GOOGLE_CHAT_ACCOUNT,
    GOOGLE_CHAT_AUDIENCE: PROJECT_NUMBER,
  };
}

/** What Chat sends the app for a message: the event's JSON and its `Authorization` header. */
export type ChatDelivery = HeldDelivery;

export function googleChatRequest(baseUrl: string, delivery: ChatDelivery): Request {
  return new Request(`${baseUrl}/google-chat/events`, {
    method: "POST",
    headers: {
      Authorization: delivery.authorization,
      "Content-Type": "application/json",
      "User-Agent": "Google-Dynamite",
    },
    body: JSON.stringify(delivery.body),
  });
}

/** Makes a space (threads), a group chat or a DM, named `name` (`spaces/<id>`), with the app in it. */
export async function makeGoogleChatSpace(fakeUrl: string, name: string, spaceType: SpaceType): Promise<void> {
  await control(fakeUrl, "/__space", { name, spaceType });
}

type SpaceType = "SPACE" | "GROUP_CHAT" | "DIRECT_MESSAGE";

export interface ChatSay {
  space: string;
  /** `users/<digits>` and the name people see. */
  from: { name: string; displayName: string };
  text: string;
  mention: boolean;
  /** A reply in this thread; a new thread at the top otherwise. */
  thread?: string;
  /** Signs Chat's token for this audience instead of the app's (a misdirected delivery). */
  audience?: string;
}

/** A person writes in the fake's Chat; the message's thread and what Chat sends the app (null: nothing). */
export function googleChatSay(
  fakeUrl: string,
  say: ChatSay,
): Promise<{ message: string; thread: string; delivery: ChatDelivery | null }> {
  return control(fakeUrl, "/__message", { ...say, deliver: false });
}

/**
 * bench/load's Google Chat places: a space where a person @mentions the app at the top (a new thread, the
 * conversation's start) and a DM with the app, alternating; each needs one answer, its delivery made in the fake
 * before the phases.
 */
export function googleChatPlaces(count: number, run: string): PlannedMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const dm = i % 2 === 1;
    const space = `spaces/L${run}x${i}`;
    const say: ChatSay = {
      space,
      from: { name: `users/${8_000_000 + i}`, displayName: `Person ${i}` },
      text: dm ? `what is the answer to ${i}?` : `I'm planning step ${i}. What do you think?`,
      mention: !dm,
    };
    const write = async (fakes: PreparingFakes) => {
      await makeGoogleChatSpace(fakes.googleChat, space, dm ? "DIRECT_MESSAGE" : "SPACE");
      return (await googleChatSay(fakes.googleChat, say)).delivery;
    };
    return {
      platform: "google-chat",
      kind: dm ? "gc_dm" : "gc_new_mention",
      place: space,
      needsAnswer: true,
      ...heldDelivery(() => space, write, googleChatRequest),
    };
  });
}
