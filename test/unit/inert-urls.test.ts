import { describe, expect, it } from "vitest";
import { type Inline, parseInline } from "../../lib/text/markdown-inline.ts";
import { inertUrls } from "../../lib/text/inert-urls.ts";

/** Whether the platforms' Markdown reader (lib/text/markdown-inline.ts) finds a link anywhere in `text`. */
const links = (text: string): string[] =>
  text.split("\n").flatMap((line) => {
    const walk = (nodes: Inline[]): string[] =>
      nodes.flatMap((n) => (n.t === "link" ? [n.href] : "children" in n ? walk(n.children) : []));
    return walk(parseInline(line));
  });

describe("URLs the model writes, shown inert", () => {
  it("drops the scheme of a bare URL and shows it as code", () => {
    const out = inertUrls("Log in again at https://evil.example/login. Then https://app.slack.com/archives/C9/p17 too");
    expect(out).toBe("Log in again at `evil.example/login`. Then `app.slack.com/archives/C9/p17` too");
    expect(links(out)).toEqual([]);
  });

  it("keeps a link's label and shows its target inert beside it", () => {
    expect(inertUrls('see [the docs](https://evil.example/a?b=1 "t") now')).toBe(
      "see the docs (`evil.example/a?b=1`) now",
    );
    expect(inertUrls("<https://evil.example/x|click here> or <https://evil.example/y>")).toBe(
      "click here (`evil.example/x`) or `evil.example/y`",
    );
    expect(inertUrls("[https://evil.example](https://evil.example)")).toBe("`evil.example`");
    expect(inertUrls("![pic](http://evil.example/p.png)")).toBe("pic (`evil.example/p.png`)");
    expect(inertUrls("[see https://a.example](https://b.example)")).toBe("see `a.example` (`b.example`)");
  });

  it("shows inert what Slack links without a scheme, and any scheme", () => {
    expect(inertUrls("go to www.evil.example or evil.example/login!")).toBe(
      "go to `www.evil.example` or `evil.example/login`!",
    );
    expect(inertUrls("(ftp://files.example/x) and javascript://x%0aalert(1)")).toBe(
      "(`files.example/x`) and `x%0aalert`(1)",
    );
  });

  it("drops only the scheme inside code, and leaves text without URLs as written", () => {
    expect(inertUrls("run `curl https://evil.example/x` then\n```\nhttps://evil.example/y\n```\n")).toBe(
      "run `curl evil.example/x` then\n```\nevil.example/y\n```\n",
    );
    const plain = "Topics:\n- Node.js 22 and lib/text/split.ts, e.g. v1.2 [3]\n- 2 * 3 * 4 and snake_case";
    expect(inertUrls(plain)).toBe(plain);
  });

  it("leaves no link for the platforms' Markdown reader, whatever the mix", () => {
    const hostile = [
      "**[bold link](https://evil.example/b)**",
      "_https://evil.example/i_",
      "<mailto:ceo@evil.example|mail the CEO>",
      "https://evil.example/a)b",
      "[x](<https://evil.example/c>)",
    ].join("\n");
    expect(links(inertUrls(hostile))).toEqual([]);
    expect(inertUrls(hostile)).not.toMatch(/https?:/);
  });
});
