/**
 * The conformance corpus (test/fixtures/platforms/slack, …/twilio): payloads in the shapes Slack and Twilio
 * publish, each with its expected outcome, sent signed through the Worker's real routes. A message reaches the
 * core with the addressing and visibility the file names (the decision's log line shows it was taken in), an event
 * the bot needs no work for is acknowledged with its reason, a lifecycle event publishes its cleanups, the agent DM
 * opened is taken by the agent surface (docs/platforms/slack.md), and only a body that is not the platform's at all
 * is refused; every case unsigned is refused with 401.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { twilioSignature } from "../../dev/signers/twilio.ts";
import { adapterContext } from "../../lib/platforms/context.ts";
import { slack } from "../../lib/platforms/slack/index.ts";
import { twilio } from "../../lib/platforms/twilio/index.ts";
import { runtimeFor } from "../../lib/runtime.ts";
import { signedSlackRequest } from "../support/slack.ts";
import { twilioSuiteEnv, WEBHOOK_PATH } from "../support/twilio.ts";
import { callWorker, jobsQuiet, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";
import assistant from "../fixtures/platforms/slack/assistant.json";
import gridAndConnect from "../fixtures/platforms/slack/grid-and-connect.json";
import lifecycle from "../fixtures/platforms/slack/lifecycle.json";
import messages from "../fixtures/platforms/slack/messages.json";
import reactions from "../fixtures/platforms/slack/reactions.json";
import refused from "../fixtures/platforms/slack/refused.json";
import subtypes from "../fixtures/platforms/slack/subtypes.json";
import twilioWebhooks from "../fixtures/platforms/twilio/webhooks.json";

const SLACK_SUITE = "corpusslack";
const TWILIO_SUITE = "corpustwilio";

interface Corpus<Case> {
  source: string;
  licence: string;
  cases: Case[];
}
interface SlackCase {
  name: string;
  source: string;
  payload: unknown;
  expect: Record<string, unknown> & {
    outcome: "message" | "ignored" | "lifecycle" | "left" | "protocol" | "refused" | "agent";
  };
}
interface TwilioCase {
  name: string;
  source: string;
  params: [string, string][];
  expect: Record<string, unknown> & { outcome: "message" | "ignored" | "refused" };
}

// Every corpus file of Slack's (the signature vectors are the unit tests').
const slackCorpus: Record<string, Corpus<SlackCase>> = {
  assistant,
  gridAndConnect,
  lifecycle,
  messages,
  reactions,
  refused,
  subtypes,
} as Record<string, Corpus<SlackCase>>;
const slackCases = Object.entries(slackCorpus).flatMap(([file, corpus]) =>
  corpus.cases.map((c) => [`${file}: ${c.name}`, c] as const),
);
const twilioCorpus = twilioWebhooks as unknown as Corpus<TwilioCase> & { messagingService: string };

/** Every JSON log line the Worker writes while `run` goes on. */
let spies: MockInstance[] = [];
beforeEach(() => void (spies = [vi.spyOn(console, "log"), vi.spyOn(console, "warn")]));
afterEach(() => {
  for (const s of spies) s.mockRestore();
});
const logLines = () =>
  spies
    .flatMap((s) => s.mock.calls.map((c) => String(c[0])))
    .flatMap((l) => (l.startsWith("{") ? [JSON.parse(l) as Record<string, unknown>] : []));
const linesOf = (event: string) => logLines().filter((l) => l.event === event);

describe("the corpus", () => {
  it("holds at least 60 Slack envelopes and 20 Twilio forms, each with its source and expected outcome", () => {
    expect(slackCases.length).toBeGreaterThanOrEqual(60);
    expect(twilioCorpus.cases.length).toBeGreaterThanOrEqual(20);
    for (const [, c] of slackCases) expect(c.source.length, c.name).toBeGreaterThan(0);
    for (const [file, corpus] of Object.entries(slackCorpus)) expect(corpus.licence.length, file).toBeGreaterThan(0);
    expect(twilioCorpus.licence.length).toBeGreaterThan(0);
  });
});

describe("Slack envelopes through POST /slack/events", () => {
  const env = suiteEnv(SLACK_SUITE);
  pumpJobsDuringSuite(env, SLACK_SUITE);
  const rt = runtimeFor(env);

  it.each(slackCases)("%s", async (_name, c) => {
    const body = typeof c.payload === "string" ? c.payload : JSON.stringify(c.payload);
    const unsigned = await callWorker(
      env,
      new Request("https://bot.test/slack/events", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      }),
    );
    expect(unsigned.status).toBe(401);

    const res = await callWorker(env, await signedSlackRequest(body));
    const expected = c.expect;
    if (expected.outcome === "refused") {
      expect(res.status).toBe(expected.status);
      expect(linesOf("slack_invalid")).toHaveLength(1);
      return;
    }
    expect(res.status).toBe(200);
    if (expected.outcome === "protocol") {
      expect(await res.json()).toMatchObject({ challenge: expect.any(String) });
      return;
    }
    if (expected.outcome === "ignored") {
      expect(linesOf("slack_ignored").map((l) => l.reason)).toEqual([expected.reason]);
      return;
    }
    if (expected.outcome === "agent") {
      expect(linesOf("slack_agent_opened").map((l) => l.legacy)).toEqual([expected.legacy]);
      return;
    }
    if (expected.outcome === "lifecycle") {
      expect(linesOf("tenant_cleanup_published").map((l) => l.tenant)).toEqual(expected.tenants);
      return;
    }
    // The bot taken out of one channel: what it kept for that place goes (a digest's schedule among it).
    if (expected.outcome === "left") {
      expect(linesOf("place_left").map((l) => l.tenant)).toEqual([expected.tenant]);
      return;
    }
    // A message: the core took it in (its decision is logged), with what the adapter read from it.
    const parsed = slack.parse(adapterContext(rt, slack), {
      headers: new Headers(),
      rawBody: body,
      url: "https://bot.test/slack/events",
    });
    if (parsed.kind !== "message") throw new Error(`expected a message, got ${JSON.stringify(parsed)}`);
    const { message } = parsed;
    expect(linesOf("decision").map((l) => l.message)).toEqual([message.id]);
    expect({ addressing: message.addressing, visibility: message.visibility }).toEqual({
      addressing: expected.addressing,
      visibility: expected.visibility,
    });
    if (expected.tenant) expect(message.key.tenant).toBe(expected.tenant);
    if (expected.recipientTeam) expect(message.replyTarget).toMatchObject({ recipientTeam: expected.recipientTeam });
    if (expected.feedback) expect(message).toMatchObject({ feedback: expected.feedback, noReply: true });
    if (expected.author === "bot") expect(linesOf("decision")[0]).toMatchObject({ respond: "no", reason: "other_bot" });
  });
});

describe("Twilio forms through POST /twilio/sms", () => {
  // No burst wait: every text's answer is sent while the suite runs, and none is left for after it (jobsQuiet).
  const env = twilioSuiteEnv(TWILIO_SUITE, {
    TWILIO_MESSAGING_SERVICE_SID: twilioCorpus.messagingService,
    SMS_BURST_WINDOW_SECONDS: "0",
  });
  const pump = pumpJobsDuringSuite(env, TWILIO_SUITE);
  afterAll(() => jobsQuiet(pump));
  const rt = runtimeFor(env);
  const url = `${String(env.PUBLIC_BASE_URL)}${WEBHOOK_PATH}`;
  const request = (params: [string, string][], signature?: string) =>
    new Request(`https://worker.test${WEBHOOK_PATH}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        ...(signature ? { "X-Twilio-Signature": signature } : {}),
      },
      body: new URLSearchParams(params).toString(),
    });

  it.each(twilioCorpus.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    expect((await callWorker(env, request(c.params))).status).toBe(401);
    const res = await callWorker(
      env,
      request(c.params, await twilioSignature(String(env.TWILIO_AUTH_TOKEN), url, c.params)),
    );
    const expected = c.expect;
    if (expected.outcome === "refused") {
      expect(res.status).toBe(expected.status);
      expect(linesOf("twilio_invalid")).toHaveLength(1);
      return;
    }
    expect(res.status).toBe(200);
    const twiml = await res.text();
    if (expected.outcome === "ignored") {
      expect(linesOf("twilio_ignored").map((l) => l.reason)).toEqual([expected.reason]);
      return;
    }
    const parsed = twilio.parse(adapterContext(rt, twilio), {
      headers: new Headers(),
      rawBody: new URLSearchParams(c.params).toString(),
      url,
    });
    if (parsed.kind !== "message") throw new Error(`expected a message, got ${JSON.stringify(parsed)}`);
    expect(parsed.whatsapp).toBe(expected.channel === "whatsapp");
    if (expected.text !== undefined) expect(parsed.message.text).toBe(expected.text);
    if (expected.keyword !== undefined) expect(parsed.keyword).toBe(expected.keyword);
    const published = linesOf("job_published").filter((l) => l.message === parsed.message.id);
    if (expected.answer === "job") {
      expect(published).toHaveLength(1);
      expect(twiml).not.toContain("<Message>");
    } else {
      expect(published).toEqual([]);
      if (expected.answer === "twiml") expect(twiml).toContain(String(expected.twiml));
      else expect(twiml).not.toContain("<Message>");
    }
  });
});
