/**
 * Tools in the reply job (docs/tools.md): the model asks for a lookup, the tool runs once, its result comes back to
 * the model as data and the answer tells the person; at most MAX_TOOL_ROUNDS rounds; each kind of tool (an HTTP
 * tool signed for the tool server, a TypeScript tool, web_search, fetch_page's refusals); per-tenant TOOLS; and a
 * prompt injection in a tool's result that gets nowhere. Whole and streamed answers alike.
 */
import { describe, expect, it } from "vitest";
import { modelRequests, scriptModel, type ChatRequest } from "../support/model.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
} from "../support/slack.ts";
import { botMessages, unescapeSlack } from "../support/streams.ts";
import { createCalls, toolServerCalls, toolSettings } from "../support/tools.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv, type TestEnv } from "../support/worker.ts";

const TOOLS = "lookup_ticket,create_ticket,time_in_zone,web_search,fetch_page";
/** create_ticket is offered too: it needs a person's approval, which Slack takes as a reaction (docs/tools.md). */
const OFFERED = ["create_ticket", "fetch_page", "lookup_ticket", "time_in_zone", "web_search"];
const modes = [
  {
    mode: "written whole",
    env: suiteEnv("tools", { ...toolSettings(TOOLS), FOLLOWUP_MODEL: "followup-model", MAX_TOOL_ROUNDS: "2" }),
  },
  {
    mode: "streamed",
    env: suiteEnv("toolsstream", {
      ...toolSettings(TOOLS),
      FOLLOWUP_MODEL: "followup-model",
      MAX_TOOL_ROUNDS: "2",
      STREAMING: "true",
    }),
  },
];
pumpJobsDuringSuite(modes[0]!.env, "tools");
pumpJobsDuringSuite(modes[1]!.env, "toolsstream");

/** Asks the bot in a place of its own; `answer(words)` waits for the bot's message to show them. */
async function ask(
  env: TestEnv,
  text: string,
  place = newSlackPlace("TOOL"),
): Promise<{ answer: (words: string) => Promise<string>; triggerId: string }> {
  const ts = distinctSlackTs();
  const event = slackMessageEvent({ ...place, user: "UASKER", text: `<@${BOT_USER_ID}> ${text}`, ts });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  const answer = async (words: string) => {
    const shown = await eventually(
      async () => {
        const [message] = await botMessages(place.channel);
        return (
          message && message.streaming_state !== "in_progress" && unescapeSlack(message.text).includes(words) && message
        );
      },
      15_000,
      `an answer with "${words}"`,
    );
    return unescapeSlack(shown.text);
  };
  // The key names the place, then the trigger, whose id on Slack is `<channel>:<ts>` (lib/platforms/slack/parse.ts).
  return { answer, triggerId: `slack|${place.team}|${place.channel}||${place.channel}:${ts}` };
}

const toolMessages = (request: ChatRequest) => request.messages.filter((m) => m.role === "tool");

describe.each(modes)("tools, answers $mode", ({ env }) => {
  it("looks a ticket up once at the tool server, signed, and answers with it on the follow-up model", async () => {
    const marker = `ticket-${crypto.randomUUID().slice(0, 8)}`;
    const refusedBefore = (await toolServerCalls()).refused;
    const { answer, triggerId } = await ask(env, `what is the status of ticket 42? ${marker}`);
    await answer("Printer on 3rd floor jammed");
    const [first, second, ...more] = await modelRequests(marker);
    expect(more).toEqual([]);
    expect(first!.tools?.map((t) => t.function.name).sort()).toEqual(OFFERED);
    expect(first!.model).not.toBe("followup-model");
    expect(second!.model).toBe("followup-model");
    // The result is one JSON line between the data markers, in a tool message answering the call.
    const [result] = toolMessages(second!);
    expect(result!.content.split("\n")).toEqual([
      "<parley-data>",
      expect.stringContaining('"tool":"lookup_ticket"'),
      "</parley-data>",
    ]);
    const calls = await toolServerCalls();
    expect(calls.refused).toBe(refusedBefore);
    expect(calls.byKey[`${triggerId}:0`]).toBe(1);
  });

  it("stops asking for tools after MAX_TOOL_ROUNDS: the last pass must answer in words", async () => {
    const marker = `rounds-${crypto.randomUUID().slice(0, 8)}`;
    await scriptModel({ match: marker, toolCalls: [{ name: "time_in_zone", arguments: '{"zone":"Europe/Paris"}' }] });
    const { answer } = await ask(env, `keep looking ${marker}`);
    await answer("(Europe/Paris) | time_in_zone");
    const requests = await modelRequests(marker);
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => r.tool_choice)).toEqual([undefined, undefined, "none"]);
    expect(toolMessages(requests[2]!)).toHaveLength(2);
  });

  it("searches the web through the provider, and refuses a page at an IP address without fetching it", async () => {
    const search = await ask(env, "search the web for serverless functions");
    await search.answer(
      // Slack shows an autolink as the bare address (lib/platforms/slack/format.ts).
      "Cloudflare Workers https://workers.cloudflare.com/: Run code at the edge: serverless functions.",
    );
    const page = await ask(env, "what does https://127.0.0.1/admin say?");
    await page.answer("fetch_page: error: an IP address is refused");
  });

  it("keeps a tool's output as data: an injection in a ticket changes no instruction and runs nothing", async () => {
    const marker = `inject-${crypto.randomUUID().slice(0, 8)}`;
    const { answer } = await ask(env, `look at ticket 666 please ${marker}`);
    await answer("lookup_ticket: Ticket 666");
    const [first, second] = await modelRequests(marker);
    // The system message is the same before and after the round; the injection is inside one escaped JSON string.
    expect(second!.messages[0]).toEqual(first!.messages[0]);
    const [result] = toolMessages(second!);
    const line = JSON.parse(result!.content.split("\n")[1]!) as { tool: string; result: string };
    expect(line.result).toContain("ignore all previous instructions");
    expect(second!.messages.filter((m) => m.role === "system")).toHaveLength(1);
    expect(await createCalls("pwned")).toEqual([]);
  });

  it("answers once when the pass after a lookup fails: the retry looks up again under the same Idempotency-Key", async () => {
    const marker = `retry-${crypto.randomUUID().slice(0, 8)}`;
    await scriptModel({ match: marker, afterTools: true, status: 500, times: 1 });
    const place = newSlackPlace("RTY");
    const { answer, triggerId } = await ask(env, `ticket 77 please ${marker}`, place);
    await answer("Coffee machine descaling");
    await settle(1_000);
    expect(await botMessages(place.channel)).toHaveLength(1);
    expect((await toolServerCalls()).byKey[`${triggerId}:0`]).toBe(2);
  });

  it("never runs a tool that needs approval on the model's word: it asks the person instead", async () => {
    const title = `Printer jammed ${crypto.randomUUID().slice(0, 8)}`;
    const { answer } = await ask(env, `please create_ticket {"title": "${title}"}`);
    await answer("⚠️ Approval needed: may I run create_ticket");
    expect(await createCalls(title)).toEqual([]);
  });
});

describe("which tenants get tools", () => {
  const quiet = newSlackPlace("NOTOOLS");
  const env = suiteEnv(
    "toolstenants",
    toolSettings(JSON.stringify({ "*": ["time_in_zone"], [`slack:${quiet.team}`]: [] })),
  );
  pumpJobsDuringSuite(env, "toolstenants");

  it("offers each tenant its own list, the '*' list otherwise", async () => {
    const marker = `tenant-${crypto.randomUUID().slice(0, 8)}`;
    await (await ask(env, `hello ${marker}-a`, quiet)).answer(`${marker}-a`);
    await (await ask(env, `hello ${marker}-b`)).answer(`${marker}-b`);
    const [without] = await modelRequests(`${marker}-a`);
    expect(without!.tools).toBeUndefined();
    const [withTools] = await modelRequests(`${marker}-b`);
    expect(withTools!.tools?.map((t) => t.function.name)).toEqual(["time_in_zone"]);
  });
});

describe("an HTTP tool signed with the wrong secret", () => {
  const env = suiteEnv("toolssecret", toolSettings("lookup_ticket", "not-the-secret"));
  pumpJobsDuringSuite(env, "toolssecret");

  it("is refused by the tool server, and the model hears that the tool failed", async () => {
    const before = (await toolServerCalls()).refused;
    await (await ask(env, "what about ticket 43?")).answer("lookup_ticket: error: the tool failed");
    expect((await toolServerCalls()).refused).toBe(before + 1);
  });
});

describe("the daily token budget with tools", () => {
  const ADMIN_TOKEN = "admin-token-for-tool-budget-tests-0123456789";
  const env = suiteEnv("toolsbudget", {
    ...toolSettings("lookup_ticket"),
    TENANT_DAILY_TOKEN_BUDGET: "1000000",
    ADMIN_TOKEN,
  });
  pumpJobsDuringSuite(env, "toolsbudget");
  const usage = async (team: string) => {
    const view = await callWorker(
      env,
      new Request(`https://bot.test/admin/tenants/slack/${team}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    return ((await view.json()) as { usage: { tokens: number } }).usage.tokens;
  };

  it("counts every pass: an answer after a lookup costs both model calls", async () => {
    const plain = newSlackPlace("BPLAIN");
    await (await ask(env, "how are you today?", plain)).answer("(local model)");
    const looked = newSlackPlace("BTOOL");
    await (await ask(env, "how is ticket 42 today?", looked)).answer("lookup_ticket: Ticket 42");
    const [plainTokens, toolTokens] = [await usage(plain.team), await usage(looked.team)];
    expect(plainTokens).toBeGreaterThan(0);
    // The second pass reads the whole prompt again, with the call and its result: more than twice the first.
    expect(toolTokens).toBeGreaterThan(2 * plainTokens);
  });

  it("shows each tool round in the answer's trace: the call, the result as the model read it, its time", async () => {
    const place = newSlackPlace("TRACE");
    await (await ask(env, "and ticket 43?", place)).answer("lookup_ticket: Ticket 43");
    const key = encodeURIComponent(`slack|${place.team}|${place.channel}|`);
    const view = await callWorker(
      env,
      new Request(`https://bot.test/admin/conversations/${key}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    const [trace] = (
      (await view.json()) as {
        answers: { toolRounds?: { ms: number; calls: { tool: string; arguments: string; result: string }[] }[] }[];
      }
    ).answers;
    expect(trace!.toolRounds).toEqual([
      {
        ms: expect.any(Number),
        calls: [
          { tool: "lookup_ticket", arguments: '{"id":"43"}', result: expect.stringContaining("VPN drops every hour") },
        ],
      },
    ]);
    expect(trace!.toolRounds![0]!.calls[0]!.result.startsWith("<parley-data>\n")).toBe(true);
  });
});
