/**
 * @module
 * Slack's answers from the shared model outputs (test/support/model-outputs.ts): the `markdown_text` each becomes,
 * checked against Slack's markdown block (docs.slack.dev/reference/block-kit/blocks/markdown-block: bold, italic,
 * strikethrough, links, lists, headers, code, quotes; no tables, rules, code languages or task lists) and its limit
 * of 12,000 characters, with Slack's own `<…>` tokens escaped so that nothing the model writes pings or hides a link.
 */
import { describe, expect, it } from "vitest";
import { renderSnapshot } from "../../lib/platforms/answer-format.ts";
import { SLACK_MARKDOWN_MAX_CHARS, slackFormat } from "../../lib/platforms/slack/format.ts";
import type { SlackTarget } from "../../lib/platforms/slack/target.ts";
import { MID_STREAM, MODEL_OUTPUTS, type MidStream, type ModelOutput } from "../support/model-outputs.ts";

const target: SlackTarget = { platform: "slack", channel: "C0CHAN001" };
const render = (markdown: string) => slackFormat.render(markdown, target);

const EXPECTED: Record<ModelOutput, string> = {
  heading: "## Rollback plan\n\nStop the deploy first.",
  deepHeading: "#### Step 2\nRevert the merge.",
  bold: "**Rollback plan**: stop the deploy, then revert.",
  italicAndStrike: "That was *probably* the cache, ~~not~~ the database.",
  lists: "Steps:\n\n1. Stop the deploy\n2. Revert `main`\n   - check _the_ logs\n- ☐ tell ops\n- ☑ page on-call",
  code: "Run this:\n\n```\ngit revert HEAD && git push\n```",
  links:
    "See [the runbook](https://example.com/runbook?a=1&b=2), [the status page](https://example.com/status) or " +
    "https://example.com/docs_v2.",
  table: "```\nStep    Owner\n------  -----\nRevert  Bob\nVerify  Carol\n```",
  emoji: "Deployed 🎉 all green ✅",
  quote: "> The deploy is paused.\n\nAgreed.",
  rule: "Before\n\nAfter",
  markupLookalikes: "&lt;!channel&gt; a &lt; b & c &gt; d, @alice wrote &lt;b&gt;not a tag&lt;/b&gt;",
  plainWords: "Use snake_case and 2 * 3 * 4 = 24, ~5 minutes.",
};

const EXPECTED_MID_STREAM: Record<MidStream, string> = {
  openBold: "**Rollback plan** for the **ne**",
  loneMark: "",
  openFence: "Run this:\n\n```\ngit revert\n```",
  openCode: "Run `npm`",
};

describe("Slack's markdown_text from the model's Markdown", () => {
  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const rendered = render(MODEL_OUTPUTS[name as ModelOutput]);
    expect(rendered).toBe(expected);
    // What Slack's markdown block reads: no token of its own, no table, no code language, within its limit.
    expect(rendered).not.toMatch(/<[!@#]|<https?:/);
    expect(rendered).not.toMatch(/^\|.*\|$/m);
    expect(rendered).not.toMatch(/^```\S/m);
    expect(rendered.length).toBeLessThanOrEqual(SLACK_MARKDOWN_MAX_CHARS);
  });

  it.each(Object.entries(EXPECTED_MID_STREAM))("mid-stream: %s", (name, expected) => {
    expect(renderSnapshot(slackFormat, MID_STREAM[name as MidStream], target)).toBe(expected);
  });

  it("keeps a part of 4,000 characters within markdown_text's 12,000 however much escaping it needs", () => {
    const rendered = render("<".repeat(4_000));
    expect(rendered.length).toBeLessThanOrEqual(SLACK_MARKDOWN_MAX_CHARS);
    expect(rendered).not.toContain("<");
  });
});
