/**
 * @module
 * Telegram's answers from the shared model outputs (test/support/model-outputs.ts): the Bot API HTML each becomes,
 * read back by the Telegram fake's parser (dev/fakes/telegram/html.ts, after core.telegram.org/bots/api#html-style)
 * into the text and entities people see, within "1-4096 characters after entities parsing"; and the fake refusing
 * what Telegram refuses ("can't parse entities").
 */
import { describe, expect, it } from "vitest";
import { parseTelegramHtml } from "../../dev/fakes/telegram/html.ts";
import { renderSnapshot } from "../../lib/platforms/answer-format.ts";
import { TELEGRAM_MAX_MESSAGE_CHARS, telegramFormat } from "../../lib/platforms/telegram/format.ts";
import type { TelegramTarget } from "../../lib/platforms/telegram/target.ts";
import { MID_STREAM, MODEL_OUTPUTS, type MidStream, type ModelOutput } from "../support/model-outputs.ts";

const target: TelegramTarget = { platform: "telegram", chatId: -1001234567890, chatType: "supergroup" };
const render = (markdown: string) => telegramFormat.render(markdown, target);
/** What Telegram shows: the text, and each entity as `type:what it covers`. */
function shown(html: string): { text: string; marks: string[] } {
  const { text, entities } = parseTelegramHtml(html);
  return {
    text,
    marks: entities.map(
      (e) =>
        `${e.type}${e.url ? `(${e.url})` : e.language ? `(${e.language})` : ""}:${text.slice(e.offset, e.offset + e.length)}`,
    ),
  };
}

const EXPECTED: Record<ModelOutput, { text: string; marks: string[] }> = {
  heading: { text: "Rollback plan\n\nStop the deploy first.", marks: ["bold:Rollback plan"] },
  deepHeading: { text: "Step 2\n\nRevert the merge.", marks: ["bold:Step 2"] },
  bold: { text: "Rollback plan: stop the deploy, then revert.", marks: ["bold:Rollback plan"] },
  italicAndStrike: {
    text: "That was probably the cache, not the database.",
    marks: ["italic:probably", "strikethrough:not"],
  },
  lists: {
    text: "Steps:\n\n1. Stop the deploy\n2. Revert main\n   ◦ check the logs\n• ☐ tell ops\n• ☑ page on-call",
    marks: ["code:main", "italic:the"],
  },
  code: { text: "Run this:\n\ngit revert HEAD && git push", marks: ["pre(bash):git revert HEAD && git push"] },
  links: {
    text: "See the runbook, the status page or https://example.com/docs_v2.",
    marks: [
      "text_link(https://example.com/runbook?a=1&b=2):the runbook",
      "text_link(https://example.com/status):the status page",
    ],
  },
  table: {
    text: "Step    Owner\n------  -----\nRevert  Bob\nVerify  Carol",
    marks: ["pre:Step    Owner\n------  -----\nRevert  Bob\nVerify  Carol"],
  },
  emoji: { text: "Deployed 🎉 all green ✅", marks: [] },
  quote: { text: "The deploy is paused.\n\nAgreed.", marks: ["blockquote:The deploy is paused."] },
  rule: { text: "Before\n\nAfter", marks: [] },
  // Nothing of it is markup, and the fullwidth ＠ notifies nobody.
  markupLookalikes: { text: "<!channel> a < b & c > d, ＠alice wrote <b>not a tag</b>", marks: [] },
  plainWords: { text: "Use snake_case and 2 * 3 * 4 = 24, ~5 minutes.", marks: [] },
};

const EXPECTED_MID_STREAM: Record<MidStream, { text: string; marks: string[] }> = {
  openBold: { text: "Rollback plan for the ne", marks: ["bold:Rollback plan", "bold:ne"] },
  loneMark: { text: "", marks: [] },
  openFence: { text: "Run this:\n\ngit revert", marks: ["pre(bash):git revert"] },
  openCode: { text: "Run npm", marks: ["code:npm"] },
};

describe("Telegram's HTML from the model's Markdown", () => {
  it.each(Object.entries(EXPECTED))("%s", (name, expected) => {
    const html = render(MODEL_OUTPUTS[name as ModelOutput]);
    expect(shown(html)).toEqual(expected);
    expect(parseTelegramHtml(html).text.length).toBeLessThanOrEqual(TELEGRAM_MAX_MESSAGE_CHARS);
  });

  it.each(Object.entries(EXPECTED_MID_STREAM))("mid-stream: %s", (name, expected) => {
    expect(shown(renderSnapshot(telegramFormat, MID_STREAM[name as MidStream], target))).toEqual(expected);
  });

  it("keeps a part of 4,096 characters within the limit as Telegram counts it, however much it escapes", () => {
    const html = render("a < b & c ".repeat(409));
    expect(parseTelegramHtml(html).text.length).toBeLessThanOrEqual(TELEGRAM_MAX_MESSAGE_CHARS);
  });
});

describe("the Telegram fake reads HTML as Telegram does", () => {
  it.each([
    ["a <name> tag", 'can\'t parse entities: Unsupported start tag "name" at byte offset 2'],
    ["a << b >>", 'can\'t parse entities: Unsupported start tag "<" at byte offset 2'],
    ["a < b", "can't parse entities: Unclosed start tag at byte offset 2"],
    ["<b>bold", "can't parse entities: Can't find end tag corresponding to start tag \"b\""],
    ["bold</b>", "can't parse entities: Unexpected end tag at byte offset 4"],
    ["<b><i>x</b></i>", 'can\'t parse entities: Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'],
    ["é <br />", 'can\'t parse entities: Unsupported start tag "br" at byte offset 3'],
  ])("refuses %j", (html, description) => {
    expect(() => parseTelegramHtml(html)).toThrow(`Bad Request: ${description}`);
  });

  it("takes the named and numeric entities, and a bare & as written", () => {
    expect(parseTelegramHtml("&lt;b&gt; &amp; &quot; &#60; &#x3C; & AT&T").text).toBe('<b> & " < < & AT&T');
  });
});
