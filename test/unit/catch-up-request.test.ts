/**
 * @module
 * Which messages ask the bot to catch someone up (lib/catch-up/request.ts), and how far back a named window
 * reaches; anything that merely mentions a summary stays a question for the answer.
 */
import { describe, expect, it } from "vitest";
import { catchUpRequest } from "../../lib/catch-up/request.ts";

const bot = { userId: "UPARLEYBOT", name: "Parley", aliases: ["pb"] };
const HOUR = 3_600_000;

describe("catchUpRequest", () => {
  it.each([
    "@Parley catch me up",
    "Parley, what did I miss?",
    "what have I missed",
    "tl;dr of this thread",
    "TLDR",
    "pb recap please",
    "can you catch me up on this channel?",
    "@Parley summarize this thread",
    "fill me in",
    "@Parley @Parley what did I miss?",
  ])("%s asks for the default window", (text) => {
    expect(catchUpRequest(text, bot)).toEqual({});
  });

  it.each([
    ["summarize the last two hours", 2 * HOUR],
    ["@Parley catch me up on the last 3 hours", 3 * HOUR],
    ["what did I miss in the past hour?", HOUR],
    ["tl;dr of the last 30 minutes", HOUR / 2],
    ["recap the last day", 24 * HOUR],
    ["summarise the past couple of hours please", 2 * HOUR],
    ["catch me up on this thread from the last 12 hours", 12 * HOUR],
  ])("%s names its window", (text, windowMs) => {
    expect(catchUpRequest(text, bot)).toEqual({ windowMs });
  });

  it.each([
    "can you summarize the doc I sent?",
    "@Parley",
    "I think we should catch up with the vendor tomorrow",
    "what did I miss in the spec about retries",
    "summary of the incident for the postmortem",
    "don't catch me up",
  ])("%s is no catch-up request", (text) => {
    expect(catchUpRequest(text, bot)).toBeNull();
  });
});
