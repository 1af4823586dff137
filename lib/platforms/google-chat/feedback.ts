/**
 * @module
 * Feedback on answers on Google Chat (lib/feedback/capability.ts): the answer's last message gets a card of two
 * outlined buttons (👍, 👎), each invoking the app with the control's id as its `parley_control` parameter
 * (./controls.ts), through a patch of the message's cards alone (its text stays as posted). A click is a press,
 * answered as an approval's stranger is: a private note only the clicker sees. A 👎 under an unprompted answer is
 * recorded as a 👎 reaction would be, one per person and message; Chat tells an app of no reaction, so the click is
 * the only way it hears one.
 */
import type { ControlPress } from "../../approvals/capability.ts";
import type { FeedbackControl } from "../../feedback/capability.ts";
import type { InboundMessage } from "../../message.ts";
import { withBackoff } from "./api.ts";
import { buttonCard } from "./controls.ts";
import { patchMessage } from "./send.ts";
import type { GoogleChatSettings } from "./settings.ts";
import type { GoogleChatTarget } from "./target.ts";
import type { ReplyContext } from "../adapter.ts";

const CARD_ID = "parley_feedback";

export const googleChatFeedback = {
  async offer(
    ctx: ReplyContext<GoogleChatSettings>,
    target: GoogleChatTarget,
    ref: string,
    _answer: string,
    controls: readonly FeedbackControl[],
  ) {
    const buttons = controls.map((c) => ({ id: c.id, label: c.label, type: "OUTLINED" as const }));
    await withBackoff(() => patchMessage(ctx, target, ref, { cardsV2: [buttonCard(ctx.config, CARD_ID, buttons)] }));
  },
  notYou(press: ControlPress, now: number): InboundMessage {
    const space = `spaces/${press.place.channel}`;
    const thread = press.place.thread ? { thread: `${space}/threads/${press.place.thread}` } : {};
    return {
      key: press.place,
      // One per person and message: the same 👎 again is the same feedback.
      id: `${press.messageRef}:not_you:${press.person}`,
      author: { id: press.person, name: press.person, isBot: false },
      text: "",
      ts: now,
      addressing: "none",
      mentions: [],
      replyTarget: { platform: "google-chat", space, ...thread, dm: false } satisfies GoogleChatTarget,
      noReply: true,
      feedback: "not_you",
    };
  },
};
