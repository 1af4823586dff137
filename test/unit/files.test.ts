import { describe, expect, it } from "vitest";
import { encodePng } from "../../dev/files/png.ts";
import { describeImage } from "../../dev/local-model/images.ts";
import { fileKind, fileLine, isLog, type FileRef } from "../../lib/files/file-ref.ts";
import { imageInfo } from "../../lib/files/image-info.ts";
import { imageTokens } from "../../lib/files/image-tokens.ts";
import { readTextFile } from "../../lib/files/text-file.ts";
import { discordFileRefs } from "../../lib/platforms/discord/files.ts";
import { fetchCapped, servedFrom } from "../../lib/platforms/file-fetch.ts";
import { slackFileRefs, slackFiles } from "../../lib/platforms/slack/files.ts";
import { parseTwilioSms, toInboundMessage } from "../../lib/platforms/twilio/parse.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const le16 = (n: number) => [n & 0xff, n >> 8];
const ref = (over: Partial<FileRef>): FileRef => ({ id: "F1", name: "x", type: "", ...over });

describe("what an image's bytes say it is", () => {
  it("reads a PNG's, a JPEG's, a WebP's and a still GIF's format and size from their headers", () => {
    expect(imageInfo(encodePng(640, 360, [1, 2, 3]))).toEqual({ type: "image/png", width: 640, height: 360 });
    const jpeg = bytes([
      0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0x02, 0xd0, 0x05, 0x00, 3, 0, 0, 0, 0,
    ]);
    expect(imageInfo(jpeg)).toEqual({ type: "image/jpeg", width: 1280, height: 720 });
    const vp8 = bytes(
      "RIFF",
      [0, 0, 0, 0],
      "WEBP",
      "VP8 ",
      [0, 0, 0, 0],
      [0, 0, 0, 0x9d, 0x01, 0x2a],
      le16(300),
      le16(200),
      [0, 0],
    );
    expect(imageInfo(vp8)).toEqual({ type: "image/webp", width: 300, height: 200 });
    const frame = [0x2c, 0, 0, 0, 0, ...le16(2), ...le16(2), 0, 2, 2, 0x4c, 0x01, 0];
    expect(imageInfo(bytes("GIF89a", le16(2), le16(2), [0, 0, 0], frame, [0x3b]))).toEqual({
      type: "image/gif",
      width: 2,
      height: 2,
    });
  });

  it("refuses an animated GIF, an animated WebP and bytes that are no picture", () => {
    const frame = [0x2c, 0, 0, 0, 0, ...le16(2), ...le16(2), 0, 2, 2, 0x4c, 0x01, 0];
    expect(imageInfo(bytes("GIF89a", le16(2), le16(2), [0, 0, 0], frame, frame, [0x3b]))).toBeNull();
    const animated = bytes(
      "RIFF",
      [0, 0, 0, 0],
      "WEBP",
      "VP8X",
      [10, 0, 0, 0],
      [0x02, 0, 0, 0],
      [99, 0, 0],
      [99, 0, 0],
    );
    expect(imageInfo(animated)).toBeNull();
    expect(imageInfo(new TextEncoder().encode("<!DOCTYPE html><html>sign in</html>"))).toBeNull();
  });

  it("prices an image as OpenAI's guide does at high detail", () => {
    // The guide's own examples: 1024×1024 is 4 tiles, 2048×4096 is scaled to 768×1536, 6 tiles.
    expect(imageTokens(1024, 1024)).toBe(765);
    expect(imageTokens(2048, 4096)).toBe(1105);
    expect(imageTokens(100, 100)).toBe(255);
  });

  it("lets the local model tell a picture's format, size and dominant colour from its pixels", () => {
    const half = encodePng(40, 40, [220, 30, 30], [255, 255, 255]);
    const mostlyBlue = encodePng(40, 40, [30, 60, 220]);
    expect(describeImage(`data:image/png;base64,${mostlyBlue.toString("base64")}`)).toMatch(
      /^a PNG picture, 40×40, mostly blue \(#/,
    );
    expect(describeImage(`data:image/png;base64,${half.toString("base64")}`)).toMatch(/mostly (red|white)/);
    expect(describeImage(`data:image/jpeg;base64,${mostlyBlue.toString("base64")}`)).toContain(
      "not the image/jpeg picture it claims to be",
    );
  });
});

describe("text files and file kinds", () => {
  it("reads text within the limit, a log keeping its end and anything else its start; NUL bytes are not text", () => {
    const text = new TextEncoder().encode("first line\nmiddle\nlast line\n");
    expect(readTextFile(text, 1_000, false)).toEqual({ text: "first line\nmiddle\nlast line\n", cut: false });
    expect(readTextFile(text, 10, true)!.text).toBe("[…]\nlast line\n");
    expect(readTextFile(text, 10, false)!.text).toBe("first line\n[…]");
    expect(readTextFile(new Uint8Array([104, 0, 105]), 100, false)).toBeNull();
  });

  it("sorts files by type and name, and writes the line a file stands as", () => {
    expect(fileKind(ref({ type: "image/png" }))).toBe("image");
    expect(fileKind(ref({ type: "image/heic" }))).toBe("other");
    expect(fileKind(ref({ name: "main.rs", type: "application/octet-stream" }))).toBe("text");
    expect(fileKind(ref({ name: "Untitled", type: "", snippet: true }))).toBe("text");
    expect(fileKind(ref({ name: "report.pdf", type: "application/pdf" }))).toBe("other");
    expect(isLog(ref({ name: "server.log" }))).toBe(true);
    expect(fileLine(ref({ name: "shot.png", type: "image/png", width: 1280, height: 720 }), "Bob")).toBe(
      "[image: shot.png, 1280×720, from Bob]",
    );
  });
});

describe("the platforms' file references", () => {
  it("keeps a Slack file's id, url_private, type, size and dimensions, a snippet as text, and leaves out a hidden one", () => {
    const refs = slackFileRefs([
      {
        id: "F0A1",
        name: "shot.png",
        mimetype: "image/png",
        size: 10,
        url_private: "https://files.slack.com/files-pri/T1-F0A1/shot.png",
        original_w: 8,
        original_h: 6,
      },
      {
        id: "F0A2",
        name: "Untitled",
        mimetype: "text/plain",
        mode: "snippet",
        url_private: "https://files.slack.com/files-pri/T1-F0A2/untitled",
      },
      { id: "F0A3", mode: "hidden_by_limit" },
      { id: "not-a-file-id", url_private: "https://files.slack.com/x" },
    ]);
    expect(refs).toEqual([
      {
        id: "F0A1",
        url: "https://files.slack.com/files-pri/T1-F0A1/shot.png",
        name: "shot.png",
        type: "image/png",
        size: 10,
        width: 8,
        height: 6,
      },
      {
        id: "F0A2",
        url: "https://files.slack.com/files-pri/T1-F0A2/untitled",
        name: "Untitled",
        type: "text/plain",
        snippet: true,
      },
    ]);
  });

  it("keeps a Discord attachment and Twilio's media of the message's own account", () => {
    const [attachment] = discordFileRefs([
      {
        id: "1",
        filename: "a.png",
        size: 3,
        url: "https://cdn.discordapp.com/attachments/1/1/a.png",
        content_type: "image/png",
        width: 2,
        height: 2,
      },
    ]);
    expect(attachment).toMatchObject({ id: "1", name: "a.png", type: "image/png", width: 2 });
    const media = `https://api.twilio.com/2010-04-01/Accounts/AC${"1".repeat(32)}/Messages/MM${"2".repeat(32)}/Media/ME${"3".repeat(32)}`;
    const form = new URLSearchParams({
      MessageSid: `MM${"2".repeat(32)}`,
      AccountSid: `AC${"1".repeat(32)}`,
      From: "+15550001",
      To: "+15550002",
      Body: "",
      NumMedia: "2",
    });
    form.set("MediaUrl0", media);
    form.set("MediaContentType0", "image/jpeg");
    form.set("MediaUrl1", "https://evil.example/steal");
    const parsed = parseTwilioSms(form);
    const message = parsed.ok ? toInboundMessage(parsed.sms, 0) : null;
    expect(message!.files).toEqual([
      { id: `ME${"3".repeat(32)}`, url: media, name: `ME${"3".repeat(32)}.jpg`, type: "image/jpeg" },
    ]);
    expect(message!.text).toBe("");
  });

  it("fetches only from the platform's hosts, at most the limit, keeping the start or the end", async () => {
    expect(servedFrom("https://files.slack.com/files-pri/T1-F1/x", ["https://files.slack.com"])).toBe(true);
    expect(servedFrom("https://files.slack.com.evil.example/x", ["https://files.slack.com"])).toBe(false);
    const body = new TextEncoder().encode("0123456789");
    const server = (async () => new Response(body)) as unknown as typeof fetch;
    expect(
      new TextDecoder().decode((await fetchCapped(server, "https://x", {}, { maxBytes: 4, keep: "start" }))!.bytes),
    ).toBe("0123");
    expect((await fetchCapped(server, "https://x", {}, { maxBytes: 10, keep: "start" }))!.totalBytes).toBe(10);
    const tail = await fetchCapped(server, "https://x", {}, { maxBytes: 4, keep: "end" });
    expect([new TextDecoder().decode(tail!.bytes), tail!.totalBytes]).toEqual(["6789", 10]);
    const refused = (async () =>
      new Response("", { status: 302, headers: { Location: "/signin" } })) as unknown as typeof fetch;
    expect(await fetchCapped(refused, "https://x", {}, { maxBytes: 4, keep: "start", redirect: "manual" })).toBeNull();
  });
});

describe("a log cut to a token allowance", () => {
  it("keeps its end and marks the cut", async () => {
    const { shortenEndToTokens } = await import("../../lib/context/shorten.ts");
    const log = Array.from({ length: 200 }, (_, i) => `line ${i} ok`).join("\n");
    const cut = shortenEndToTokens(log, 30);
    expect(cut.startsWith("…")).toBe(true);
    expect(cut.endsWith("line 199 ok")).toBe(true);
    expect(shortenEndToTokens("short", 30)).toBe("short");
  });
});

describe("references the store can read back", () => {
  it("leaves out a file whose dimensions or URL are past the stored schema's bounds", () => {
    const url = "https://files.slack.com/files-pri/T1-F0B1/x.png";
    expect(
      slackFileRefs([
        { id: "F0B1", name: "x.png", mimetype: "image/png", url_private: url, original_w: 500_000, original_h: 10 },
      ]),
    ).toEqual([]);
    expect(
      slackFileRefs([{ id: "F0B2", name: "y.png", mimetype: "image/png", url_private: `${url}?${"a".repeat(3_000)}` }]),
    ).toEqual([]);
  });
});

describe("where a Slack bot token may go", () => {
  it("only to a file's URL (files.slack.com or the API's own host, under /files-pri/), never to another URL", async () => {
    const API = "https://slack.example.test/api";
    const calls: { url: string; auth: string | null }[] = [];
    const ctx = {
      config: { SLACK_API_BASE_URL: API },
      token: async () => "xoxb-secret",
      fetch: async (url: string, init?: RequestInit) => {
        calls.push({ url, auth: new Headers(init?.headers).get("authorization") });
        return new Response("file bytes", { headers: { "content-type": "text/plain" } });
      },
    } as unknown as Parameters<typeof slackFiles.fetchFile>[0];
    const fetchAt = (url: string) =>
      slackFiles.fetchFile(ctx, { id: "F1", url, name: "a.txt", type: "text/plain" }, 100, "start");
    for (const url of [
      "https://slack.example.test/api/users.admin.setOwner?user=U1",
      "https://slack.example.test/__messages",
      "https://files.slack.com/other/T1-F1/a.txt",
      "https://files.slack.com/files-pri/../api/auth.test",
      "https://files.slack.com.evil.example/files-pri/T1-F1/a.txt",
      "http://files.slack.com/files-pri/T1-F1/a.txt",
    ])
      expect(await fetchAt(url)).toBeNull();
    expect(calls).toEqual([]);
    expect(await fetchAt("https://files.slack.com/files-pri/T1-F1/a.txt")).not.toBeNull();
    expect(await fetchAt("https://slack.example.test/files-pri/T1-F1/download/a.txt")).not.toBeNull();
    expect(calls.map((c) => c.auth)).toEqual(["Bearer xoxb-secret", "Bearer xoxb-secret"]);
  });
});
