/**
 * @module
 * bench/chaos's Google Chat conversations, as Chat delivers them (dev/fakes/google-chat): a space where a person
 * @mentions the app at the top (a new thread, which the answer joins) and others reply in that thread without a
 * mention (written in the space, never sent to the app: in a space Chat sends only what mentions it); a thread a
 * person starts without the app, then a reply in it that mentions the app (answered in that thread); and a person's
 * DM with the app, carrying a secret that must stay there. Each space is its own tenant (a space is the tenant on
 * Google Chat), named from the run so that a seed replays it; the thread is Chat's, known once the trigger is written.
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import { googleChatRequest, googleChatSay, makeGoogleChatSpace } from "../load/google-chat-traffic.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import type { Writer } from "./send.ts";
import { toolAsk } from "./tool-asks.ts";

const CHATTER_MAX = 3;

export type GoogleChatKind = "gchat_space" | "gchat_thread" | "gchat_dm";

/** What a person writes in the fake's Chat; the delivery (if Chat sends the app any) is made when it is sent. */
export interface ChatLine {
  from: { name: string; displayName: string };
  text: string;
  mention: boolean;
}

/** One Google Chat conversation of the plan: `id` its number, `tag` in each text, `word(n)` the n-th text's word. */
export function googleChatConversation(
  kind: GoogleChatKind,
  id: number,
  tag: string,
  word: (n: number) => string,
  secret: string,
  random: Random,
  run: string,
): Conversation {
  const space = `spaces/G${run}x${id}`;
  const person = (n: number) => ({ name: `users/${7_000_000 + id * 10 + n}`, displayName: `Person ${id}.${n}` });
  const line = (n: number, text: string, mention: boolean, reply: boolean, trigger: boolean): InboundMessage => ({
    word: word(n),
    trigger,
    googleChat: { from: person(n === 0 || kind === "gchat_dm" ? 0 : n), text: `${tag} ${word(n)} ${text}`, mention },
    ...(reply ? { reply } : {}),
  });
  const messages: InboundMessage[] = [];
  if (kind === "gchat_dm") {
    messages.push(
      line(0, `my locker code is ${secret}, can you keep it in mind?${toolAsk(id, tag)}`, false, false, true),
    );
  } else if (kind === "gchat_thread") {
    messages.push(line(0, "here is the plan for the launch", false, false, false));
    messages.push(line(1, `what do you think of plan ${id}?${toolAsk(id, tag)}`, true, true, true));
  } else {
    messages.push(line(0, `what do you think of plan ${id}?${toolAsk(id, tag)}`, true, false, true));
    const chatter = 1 + Math.floor(random() * CHATTER_MAX);
    for (let n = 1; n <= chatter; n++) messages.push(line(n, `I think step ${n} is fine`, false, true, false));
  }
  return {
    id,
    kind,
    tag,
    place: { platform: "google-chat", tenant: space.slice("spaces/".length), channel: space },
    ...(kind === "gchat_dm" ? { secret } : {}),
    messages,
  };
}

/** A Google Chat conversation's space made in the fake, and each line written there as the person would. */
export const googleChatWriter: Writer = {
  open: (s, c) =>
    makeGoogleChatSpace(s.googleChatFake, c.place.channel, c.kind === "gchat_dm" ? "DIRECT_MESSAGE" : "SPACE"),
  async write(s, c, m, thread) {
    const at = { space: c.place.channel, ...(thread ? { thread } : {}) };
    const written = await googleChatSay(s.googleChatFake, { ...m.googleChat!, ...at });
    // A DM's messages have threads too, but its answer is in none.
    return { ...(c.kind === "gchat_dm" ? {} : { thread: written.thread }), delivery: written.delivery };
  },
  request: googleChatRequest,
};
