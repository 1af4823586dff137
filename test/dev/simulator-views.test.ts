/**
 * @module
 * What the simulator page draws of a message (dev/simulator/views/), as each client draws what it was sent: Slack's
 * mrkdwn (`text`) and its markdown_text, Discord's Markdown, and a Telegram text with the entities the Bot API made
 * of the bot's HTML. The page draws these trees with a fixed set of elements (public/render.js).
 */
import { describe, expect, it } from "vitest";
import { parseTelegramHtml } from "../../dev/fakes/telegram/html.ts";
import { DISCORD_MARKDOWN, markdownView, SLACK_MARKDOWN } from "../../dev/simulator/views/markdown-view.ts";
import { googleChatTextView, mrkdwnView } from "../../dev/simulator/views/mrkdwn-view.ts";
import { telegramView } from "../../dev/simulator/views/telegram-view.ts";
import { node } from "../../dev/simulator/views/view.ts";

describe("the simulator's views of a message", () => {
  it("draws Slack mrkdwn: its marks at word edges only, links, mentions by name, quotes and blocks", () => {
    const names = (user: string) => (user === "U0SIMALICE" ? "Alice" : undefined);
    expect(
      mrkdwnView("*bold* _it_ ~gone~ snake_case `a < b` <@U0SIMALICE> <https://x.example|site> &lt;b&gt;", names),
    ).toEqual([
      node("p", [
        node("b", ["bold"]),
        " ",
        node("i", ["it"]),
        " ",
        node("s", ["gone"]),
        " snake_case ",
        node("code", ["a < b"]),
        " ",
        node("mention", ["@Alice"]),
        " ",
        node("a", ["site"], "https://x.example"),
        " <b>",
      ]),
    ]);
    expect(mrkdwnView("> quoted *q*\n```\ncode *not bold*\n```")).toEqual([
      node("quote", [node("p", ["quoted ", node("b", ["q"])])]),
      node("pre", ["code *not bold*"]),
    ]);
  });

  it("draws Google Chat's text format: its marks and mentions by name, no quotes, no escapes, its inert ＜", () => {
    const names = (user: string) => (user === "users/500000000000000001" ? "Alice" : undefined);
    expect(
      googleChatTextView("*bold* _it_ ~gone~ `x` <users/500000000000000001> &lt; ＜users/all>\n> not a quote", names),
    ).toEqual([
      node("p", [
        node("b", ["bold"]),
        " ",
        node("i", ["it"]),
        " ",
        node("s", ["gone"]),
        " ",
        node("code", ["x"]),
        " ",
        node("mention", ["@Alice"]),
        " &lt; ＜users/all>\n> not a quote",
      ]),
    ]);
  });

  it("draws markdown_text as Slack's markdown block does, and Discord's Markdown with its own limits", () => {
    expect(
      markdownView("## Plan\n**do** &lt;it&gt;\n\n- one\n  - two\n\n| a | b |\n|---|---|", SLACK_MARKDOWN),
    ).toEqual([
      node("h", ["Plan"]),
      node("p", [node("b", ["do"]), " <it>"]),
      node("ul", [node("li", ["• ", "one"]), node("li", ["\u2003◦ ", "two"])]),
      // Neither client draws a table: its pipes show as sent.
      node("p", ["| a | b |\n|---|---|"]),
    ]);
    expect(markdownView("#### Deep\n&lt;", DISCORD_MARKDOWN)).toEqual([node("p", ["#### Deep"]), node("p", ["&lt;"])]);
  });

  it("draws a Telegram text from its entities, nested as the Bot API allows", () => {
    const { text, entities } = parseTelegramHtml(
      '<b>Bold <i>both</i></b> <a href="https://x.example">link</a>\n<pre><code class="language-js">x</code></pre>',
    );
    expect(telegramView(text, entities)).toEqual([
      node("p", [
        node("b", ["Bold ", node("i", ["both"])]),
        " ",
        node("a", ["link"], "https://x.example"),
        "\n",
        node("pre", ["x"]),
      ]),
    ]);
  });
});
