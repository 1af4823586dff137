/**
 * @module
 * Discord's answers from the shared model outputs (test/support/model-outputs.ts): Discord's Markdown is the
 * model's but for what Discord does not show (support.discord.com "Markdown Text 101": headings down to `###`, no
 * tables, no rules, no task lists), each message within Discord's 2,000 characters of `content`.
 */
import { describe, expect, it } from "vitest";
import { renderSnapshot } from "../../lib/platforms/answer-format.ts";
import { DISCORD_MAX_MESSAGE_CHARS, discordFormat } from "../../lib/platforms/discord/format.ts";
import type { DiscordTarget } from "../../lib/platforms/discord/target.ts";
import { MID_STREAM, MODEL_OUTPUTS, type MidStream, type ModelOutput } from "../support/model-outputs.ts";

const target: DiscordTarget = { platform: "discord", kind: "channel", channelId: "81384788765712385" };
const render = (markdown: string) => discordFormat.render(markdown, target);

const EXPECTED: Record<ModelOutput, string> = {
  heading: "## Rollback plan\n\nStop the deploy first.",
  deepHeading: "**Step 2**\nRevert the merge.",
  bold: "**Rollback plan**: stop the deploy, then revert.",
  italicAndStrike: "That was *probably* the cache, ~~not~~ the database.",
  lists: "Steps:\n\n1. Stop the deploy\n2. Revert `main`\n   - check _the_ logs\n- ☐ tell ops\n- ☑ page on-call",
  code: "Run this:\n\n```bash\ngit revert HEAD && git push\n```",
  links:
    "See [the runbook](https://example.com/runbook?a=1&b=2), [the status page](https://example.com/status) or " +
    "https://example.com/docs_v2.",
  table: "```\nStep    Owner\n------  -----\nRevert  Bob\nVerify  Carol\n```",
  emoji: "Deployed 🎉 all green ✅",
  quote: "> The deploy is paused.\n\nAgreed.",
  rule: "Before\n\nAfter",
  // Discord reads none of these as markup; mentions never ping (allowed_mentions: test/unit/discord-send.test.ts).
  markupLookalikes: "<!channel> a < b & c > d, @alice wrote <b>not a tag</b>",
  plainWords: "Use snake_case and 2 * 3 * 4 = 24, ~5 minutes.",
};

const EXPECTED_MID_STREAM: Record<MidStream, string> = {
  openBold: "**Rollback plan** for the **ne**",
  loneMark: "",
  openFence: "Run this:\n\n```bash\ngit revert\n```",
  openCode: "Run `npm`",
};

describe("Discord's Markdown from the model's", () => {
  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const rendered = render(MODEL_OUTPUTS[name as ModelOutput]);
    expect(rendered).toBe(expected);
    expect(rendered).not.toMatch(/^#{4,} /m);
    expect(rendered).not.toMatch(/^\|.*\|$/m);
    expect(rendered.length).toBeLessThanOrEqual(DISCORD_MAX_MESSAGE_CHARS);
  });

  it.each(Object.entries(EXPECTED_MID_STREAM))("mid-stream: %s", (name, expected) => {
    expect(renderSnapshot(discordFormat, MID_STREAM[name as MidStream], target)).toBe(expected);
  });

  it("keeps a part of 2,000 characters within one message when a table grows as it is aligned", () => {
    const rows = Array.from({ length: 300 }, (_, i) => `|${i % 7 === 0 ? "a much longer cell" : "b"}|c|`);
    const part = ["|h|k|", "|-|-|", ...rows].join("\n").slice(0, DISCORD_MAX_MESSAGE_CHARS);
    expect(render(part).length).toBeLessThanOrEqual(DISCORD_MAX_MESSAGE_CHARS);
  });
});
