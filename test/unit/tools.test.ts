/**
 * Tools below the reply job: the TOOLS and HTTP_TOOLS settings (malformed: no tools, said so), fetch_page's
 * refusals and limits, the request signature an endpoint checks, and a round's calls (unknown tools, approval-only
 * tools, bad arguments, a tool that overruns its time), whose log lines never carry arguments or results.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSettings } from "../../lib/config.ts";
import type { LogFields, Logger } from "../../lib/log.ts";
import type { ToolServices } from "../../lib/tools/tool.ts";
import { pageText, pageUrlRefusal, readCapped } from "../../lib/tools/fetch-page.ts";
import { signToolRequest } from "../../lib/tools/http-tool.ts";
import { runToolRound } from "../../lib/tools/run.ts";
import { createToolbox } from "../../lib/tools/toolbox.ts";
import type { Tool } from "../../lib/tools/tool.ts";
import { MINIMAL_SETTINGS } from "../support/settings.ts";

const settings = (env: Record<string, string>) => parseSettings({ ...MINIMAL_SETTINGS, ...env });
const HTTP_TOOL = {
  name: "lookup",
  description: "d",
  parameters: { type: "object" },
  url: "https://tools.example.com/lookup",
  secret: "LOOKUP_SECRET",
};

describe("the tool settings", () => {
  it("read TOOLS as a list for every tenant, or as lists by tenant, the tenant's own list first", () => {
    expect(settings({ TOOLS: "fetch_page, time_in_zone" }).TOOLS).toEqual({ "*": ["fetch_page", "time_in_zone"] });
    const s = settings({ TOOLS: '{"*": ["fetch_page"], "slack:T1": ["time_in_zone"]}' });
    const box = createToolbox(s, {}, silent());
    expect(box.forTenant({ platform: "slack", tenant: "T1" }).map((t) => t.name)).toEqual(["time_in_zone"]);
    expect(box.forTenant({ platform: "slack", tenant: "T2" }).map((t) => t.name)).toEqual(["fetch_page"]);
    expect(createToolbox(settings({}), {}, silent()).forTenant({ platform: "slack", tenant: "T1" })).toEqual([]);
  });

  it("turn tools off, and only tools, when TOOLS or HTTP_TOOLS is malformed, naming the setting and never its value", () => {
    for (const TOOLS of ['{"everyone": ["x"]}', "{not json", '{"*": ["bad name!"]}']) {
      const s = settings({ TOOLS });
      expect(s.TOOLS).toEqual({ "*": [] });
      expect(s.ignored.map((p) => p.name)).toEqual(["TOOLS"]);
      expect(JSON.stringify(s.ignored)).not.toContain(TOOLS);
    }
    for (const url of ["ftp://x", "http://tools.example.com/lookup"]) {
      const s = settings({ HTTP_TOOLS: JSON.stringify([{ ...HTTP_TOOL, url }]) });
      expect(s.HTTP_TOOLS).toEqual([]);
      expect(s.ignored.map((p) => p.name)).toEqual(["HTTP_TOOLS"]);
    }
    expect(
      settings({ HTTP_TOOLS: JSON.stringify([{ ...HTTP_TOOL, url: "http://127.0.0.1:8097/tools/x" }]) }).HTTP_TOOLS,
    ).toHaveLength(1);
  });

  it("leaves out an HTTP tool whose secret is not set, and says so", () => {
    const s = settings({ TOOLS: "lookup", HTTP_TOOLS: JSON.stringify([HTTP_TOOL]) });
    const events: string[] = [];
    const box = createToolbox(s, {}, silent(events));
    expect(box.forTenant({ platform: "slack", tenant: "T" })).toEqual([]);
    expect(events).toEqual(["tool_off", "tools_unknown"]);
    expect(
      createToolbox(s, { LOOKUP_SECRET: "s3cret" }, silent())
        .forTenant({ platform: "slack", tenant: "T" })
        .map((t) => t.name),
    ).toEqual(["lookup"]);
  });
});

describe("fetch_page", () => {
  it.each([
    ["http://example.com/", "only https pages are fetched"],
    ["ftp://example.com/", "only https pages are fetched"],
    ["https://user:pw@example.com/", "a URL with credentials is refused"],
    ["https://93.184.216.34/", "an IP address is refused: give the page's name"],
    ["https://[::1]/", "an IP address is refused: give the page's name"],
    ["https://2130706433/", "an IP address is refused: give the page's name"],
    ["https://localhost/", "a local or private host is refused"],
    ["https://printer.local/", "a local or private host is refused"],
    ["https://intranet/", "a local or private host is refused"],
    ["https://example.com:8443/", "only the standard https port is allowed"],
    ["not a url", "not a URL"],
  ])("refuses %s before any request", (url, why) => {
    expect(pageUrlRefusal(url)).toBe(why);
  });

  it("takes a public https page, the standard port written or not", () => {
    expect(pageUrlRefusal("https://example.com/a?b=c")).toBeNull();
    expect(pageUrlRefusal("https://example.com:443/")).toBeNull();
  });

  it("reads at most its byte cap and keeps only the text of HTML", async () => {
    const big = new Response("x".repeat(5_000));
    expect(await readCapped(big, 1_024)).toEqual({ text: "x".repeat(1_024), cut: true });
    expect(await readCapped(new Response("small"), 1_024)).toEqual({ text: "small", cut: false });
    expect(pageText("<html><script>alert(1)</script><style>p{}</style><p>Hello &amp; <b>welcome</b></p></html>")).toBe(
      "Hello & welcome",
    );
  });
});

describe("an HTTP tool's request signature", () => {
  it("is the hex HMAC-SHA256 of <timestamp>.<body>, as an endpoint recomputes it", async () => {
    const body = '{"tool":"lookup","arguments":{"id":"42"}}';
    const expected = `v1=${createHmac("sha256", "s3cret").update(`1700000000.${body}`).digest("hex")}`;
    expect(await signToolRequest("s3cret", 1_700_000_000, body)).toBe(expected);
  });
});

describe("a tool round", () => {
  const ran: string[] = [];
  const echo: Tool = {
    name: "echo",
    description: "d",
    parameters: {},
    run: async (args) => {
      ran.push("echo");
      return JSON.stringify(args);
    },
  };
  const approve: Tool = {
    name: "approve",
    description: "d",
    parameters: {},
    confirm: true,
    run: async () => {
      ran.push("approve");
      return "done";
    },
  };
  const stuck: Tool = { name: "stuck", description: "d", parameters: {}, run: () => new Promise(() => undefined) };
  const calls = (...specs: [string, string][]) =>
    specs.map(([name, args], i) => ({ id: `call_${i}`, name, arguments: args }));

  it("runs what was offered and tells the model why anything else was not run", async () => {
    const events: { event: string; fields: LogFields | undefined }[] = [];
    const messages = await runToolRound(
      [echo, approve, stuck],
      calls(["echo", '{"secret":"s"}'], ["approve", "{}"], ["nope", "{}"], ["echo", "{bad"], ["stuck", "{}"]),
      roundContext(events),
    );
    const lines = messages.slice(1).map((m) => JSON.parse(m.content!.split("\n")[1]!) as Record<string, string>);
    expect(lines).toEqual([
      { tool: "echo", result: '{"secret":"s"}' },
      { tool: "approve", error: "this action needs a person's approval and was not run" },
      { tool: "nope", error: "no such tool here" },
      { tool: "echo", error: "the arguments are not JSON" },
      { tool: "stuck", error: "the tool took too long" },
    ]);
    expect(ran).toEqual(["echo"]);
    // Side by side: logged as each ends.
    expect(events.map((e) => e.fields?.outcome).sort()).toEqual([
      "needs_approval",
      "not_offered",
      "ok",
      "refused",
      "timeout",
    ]);
    expect(JSON.stringify(events)).not.toContain("secret");
  });
});

function silent(events: string[] = []): Logger {
  return { info: (e) => void events.push(e), warn: (e) => void events.push(e), error: (e) => void events.push(e) };
}

function roundContext(events: { event: string; fields: LogFields | undefined }[]) {
  const log: Logger = {
    info: (event, fields) => void events.push({ event, fields }),
    warn: () => undefined,
    error: () => undefined,
  };
  const services = { settings: settings({ TOOL_TIMEOUT_MS: "50" }), log, now: Date.now } as unknown as ToolServices;
  return {
    services,
    place: { platform: "slack" as const, tenant: "T", channel: "C" },
    conversationId: "conv",
    askerId: "U",
    personalIds: false,
    visibility: async () => "public" as const,
    triggerId: "trigger",
    firstIndex: 0,
    logFields: {},
  };
}
