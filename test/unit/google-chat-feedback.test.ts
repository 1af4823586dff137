/**
 * @module
 * A 👎 clicked under an unprompted Google Chat answer is the clicker's "not you", recorded in the conversation as
 * a 👎 reaction is on other platforms: one message per person and answer (the same id however often it comes),
 * with no words, never answered, in the thread the answer is in.
 */
import { describe, expect, it } from "vitest";
import { googleChatFeedback } from "../../lib/platforms/google-chat/feedback.ts";

const press = {
  place: { platform: "google-chat", tenant: "AAAAAAAAAAA", channel: "AAAAAAAAAAA", thread: "KKKKKKKKKKK" },
  person: "users/12345678901234567890",
  messageRef: "JJJJJJJJJJJ.JJJJJJJJJJJ",
  controlId: "feedback:down:u",
  reply: "interaction",
  shownText: "Peppermint keeps well in a dark cupboard.",
} as const;

describe("a 👎 under an unprompted Google Chat answer", () => {
  it("is the clicker's 'not you' in the answer's thread, one per person and answer", () => {
    const at = Date.UTC(2026, 11, 4, 9);
    const notYou = googleChatFeedback.notYou({ ...press, place: { ...press.place } }, at);
    expect(notYou).toEqual({
      key: press.place,
      id: "JJJJJJJJJJJ.JJJJJJJJJJJ:not_you:users/12345678901234567890",
      author: { id: press.person, name: press.person, isBot: false },
      text: "",
      ts: at,
      addressing: "none",
      mentions: [],
      replyTarget: {
        platform: "google-chat",
        space: "spaces/AAAAAAAAAAA",
        thread: "spaces/AAAAAAAAAAA/threads/KKKKKKKKKKK",
        dm: false,
      },
      noReply: true,
      feedback: "not_you",
    });
    expect(googleChatFeedback.notYou({ ...press, place: { ...press.place } }, at + 5_000).id).toBe(notYou.id);
  });
});
