/**
 * The Slack fake takes a `context_actions` block as Slack's Block Kit reference documents it, and only so
 * (docs.slack.dev/reference/block-kit/blocks/context-actions-block, …/block-elements/feedback-buttons-element): 1-5
 * elements, here `feedback_buttons`, whose two buttons each need a plain_text `text` (at most 75 characters) and a
 * `value` (at most 2,000); anything else is `invalid_blocks`, as Slack answers it.
 */
import { describe, expect, it } from "vitest";
import { readBlocks } from "../../dev/fakes/slack/blocks.ts";

const button = (text: string, value: string) => ({ text: { type: "plain_text", text }, value });
const feedback = (overrides: Record<string, unknown> = {}) => ({
  type: "feedback_buttons",
  action_id: "feedback",
  positive_button: button("👍", "feedback:up:p"),
  negative_button: button("👎", "feedback:down:p"),
  ...overrides,
});
const block = (elements: unknown[], blockId = "parley_feedback:1700000000.000100") => [
  { type: "markdown", text: "The answer." },
  { type: "context_actions", block_id: blockId, elements },
];

describe("the Slack fake's context_actions block", () => {
  it("takes the documented feedback buttons under an answer", () => {
    expect(readBlocks(block([feedback()]))).toEqual(block([feedback()]));
    // The docs' own example: labels of words, an accessibility label, no block id.
    const example = feedback({
      positive_button: { ...button("Good Response", "good"), accessibility_label: "Submit positive feedback" },
    });
    expect(readBlocks([{ type: "context_actions", elements: [example] }])).not.toBe("invalid_blocks");
  });

  it("refuses what Slack refuses", () => {
    const refused = [
      block([]),
      block(Array.from({ length: 6 }, () => feedback())),
      block([feedback({ negative_button: undefined })]),
      block([feedback({ positive_button: { text: { type: "plain_text", text: "👍" } } })]),
      block([feedback({ positive_button: button("x".repeat(76), "up") })]),
      block([feedback({ positive_button: button("👍", "v".repeat(2_001)) })]),
      block([feedback({ negative_button: { text: { type: "mrkdwn", text: "👎" }, value: "down" } })]),
      block([feedback({ action_id: "a".repeat(256) })]),
      block([feedback()], "b".repeat(256)),
      block([{ type: "button", text: { type: "plain_text", text: "👍" }, action_id: "up" }]),
    ];
    for (const blocks of refused)
      expect(readBlocks(blocks), JSON.stringify(blocks).slice(0, 200)).toBe("invalid_blocks");
  });
});
