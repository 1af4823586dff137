/**
 * @module
 * A question nobody picked up, on Slack: the bot answers in a thread under it (or in the thread it was asked in).
 * What followed it is read as any history is (./history.ts): the thread under it, then the channel after it.
 */
import type { RescueCapability } from "../../rescue/capability.ts";
import type { SlackTarget } from "./target.ts";

export const slackRescue: RescueCapability<SlackTarget> = {
  under(question) {
    const threadTs = question.key.thread ?? question.id.slice(question.id.lastIndexOf(":") + 1);
    return { key: { ...question.key, thread: threadTs }, target: { ...question.target, threadTs } };
  },
};
