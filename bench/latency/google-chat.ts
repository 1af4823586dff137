/**
 * @module
 * bench/latency's Google Chat questions and what a person saw of their answers: an @mention of the app at the top
 * of a space of its own (the answer a reply in the thread it started, posted then edited as it grows) and a message
 * in a DM. Each space is made in the Google Chat fake as the question is asked, and the fake's signed event is posted
 * to the Worker as Chat posts it. Chat has no typing indicator and Parley puts up no placeholder
 * (docs/platforms/google-chat.md), so the first sign is the first post; the fake's records (its clock, this
 * machine's) tell it and when the answer was complete (the last revision of its messages).
 */
import { longAnswer } from "../../dev/local-model/long-answer.ts";
import { GOOGLE_CHAT_MAX_MESSAGE_CHARS, googleChatText } from "../../lib/platforms/google-chat/format.ts";
import { splitText } from "../../lib/text/split.ts";
import { askWorker } from "./ask.ts";
import { googleChatRequest, googleChatSay, makeGoogleChatSpace } from "../load/google-chat-traffic.ts";

export type GoogleChatKind = "gchat_space" | "gchat_dm";

let spaces = 0;

/** A new space for one question. */
export function googleChatSpace(run: string): string {
  spaces += 1;
  return `spaces/T${run}x${spaces}`;
}

/** Makes the space in the fake, writes the question there, posts Chat's event to the Worker; when it was accepted. */
export async function askOnGoogleChat(
  fakeUrl: string,
  workerUrl: string,
  kind: GoogleChatKind,
  space: string,
  text: string,
): Promise<number> {
  await makeGoogleChatSpace(fakeUrl, space, kind === "gchat_dm" ? "DIRECT_MESSAGE" : "SPACE");
  const from = { name: `users/${9_100_000 + spaces}`, displayName: `Person ${spaces}` };
  const { delivery } = await googleChatSay(fakeUrl, { space, from, text, mention: kind === "gchat_space" });
  if (!delivery) throw new Error(`Chat sent the app nothing of ${space}`);
  return askWorker(googleChatRequest(workerUrl, delivery), kind);
}

interface Message {
  byApp: boolean;
  text: string;
  revisions: { at: number }[];
}
interface Call {
  route: string;
  at: number;
}

const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;

/** What the person saw of the answer in `space`, or null while it is not complete. */
export async function seenOnGoogleChat(fakeUrl: string, space: string, tokens: number) {
  const parts = splitText(longAnswer(tokens), GOOGLE_CHAT_MAX_MESSAGE_CHARS).map(googleChatText);
  const query = `space=${encodeURIComponent(space)}`;
  const messages = (await getJson<Message[]>(`${fakeUrl}/__messages?${query}`)).filter((m) => m.byApp);
  if (messages.length !== parts.length || !messages.every((m, i) => m.text === parts[i])) return null;
  const calls = (await getJson<Call[]>(`${fakeUrl}/__calls?${query}`)).sort((a, b) => a.at - b.at);
  const firstPost = calls.find((c) => c.route === "spaces.messages.create")!;
  return {
    signAt: firstPost.at,
    firstTextAt: firstPost.at,
    completeAt: Math.max(...messages.map((m) => m.revisions.at(-1)!.at)),
    calls: calls.length,
    rateLimited: 0,
  };
}

/** The 429s the fake answered (60 writes a minute a space), all spaces together. */
export async function googleChatRefusals(fakeUrl: string): Promise<number> {
  return (await getJson<{ ratelimited: { total: number } }>(`${fakeUrl}/__stats`)).ratelimited.total;
}
