import { describe, expect, it, vi } from "vitest";
import { SLACK_FAKE_DEFAULT_TEAM } from "../../dev/fakes/slack/workspaces.ts";
import { slackHeaders } from "../../dev/signers/slack.ts";
import { SKIP_INSTRUCTION } from "../../lib/llm/wording.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import {
  BOT_USER_ID,
  SLACK_SIGNING_SECRET,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import {
  callWorker,
  eventually,
  pumpJobsDuringSuite,
  settle,
  SLACK_API_BASE_URL,
  suiteEnv,
} from "../support/worker.ts";

const SUITE = "initiative";
// The judge is off, as by default with the local model: what is answered is the decider's own call.
const env = suiteEnv(SUITE, {
  FOLLOWUP_WINDOW_SECONDS: "60",
  USE_LLM_JUDGE: "false",
  MEMORY_ENABLED: "false",
  INITIATIVE_MAX_PER_HOUR: "2",
});
const TEAM = "TINITIATIVE";
const ADMIN = "UINITADMIN";
let seq = 0;

pumpJobsDuringSuite(env, SUITE);

const newChannel = () => `CINIT${Date.now().toString(36).toUpperCase()}${++seq}`;

async function say(channel: string, user: string, text: string): Promise<void> {
  const res = await callWorker(
    env,
    await signedSlackRequest(slackMessageEvent({ team: TEAM, channel, user, text }).body),
  );
  expect(res.status).toBe(200);
}

async function parley(channel: string, text: string): Promise<string> {
  await fetch(`${SLACK_API_BASE_URL.replace(/\/api$/, "")}/__roles`, {
    method: "POST",
    body: JSON.stringify({ team: SLACK_FAKE_DEFAULT_TEAM.id, admins: [ADMIN] }),
  });
  const body = new URLSearchParams({
    team_id: TEAM,
    channel_id: channel,
    user_id: ADMIN,
    command: "/parley",
    text,
  }).toString();
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    ...(await slackHeaders(SLACK_SIGNING_SECRET, body)),
  };
  const res = await callWorker(env, new Request("https://bot.test/slack/commands", { method: "POST", headers, body }));
  return ((await res.json()) as { text: string }).text;
}

type Logs = { mock: { calls: unknown[][] } };
const lines = (logs: Logs, channel: string, event: string) =>
  logs.mock.calls
    .map((c) => String(c[0]))
    .filter((l) => l.includes(`"event":"${event}"`) && l.includes(channel))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const answered = (logs: Logs, channel: string) =>
  lines(logs, channel, "job_ended").filter((l) => l.outcome === "answered").length;
const decisions = (logs: Logs, channel: string) =>
  lines(logs, channel, "decision").map((d) => `${d.respond} ${d.reason}`);

/** Talk the bot is part of, then three messages addressed to nobody, each after the bot had its say. */
async function conversation(channel: string, logs: Logs, marker: string): Promise<void> {
  await say(channel, "UALICE", `<@${BOT_USER_ID}> which houseplants survive a dark flat? ${marker}`);
  await eventually(async () => answered(logs, channel) === 1, 15_000, "the answer to the mention");
  await say(channel, "UBOB", `my snake plant died last winter though ${marker}-1`);
  await settle(1_500);
  await say(channel, "UCAROL", `mine too, I think I watered it far too much ${marker}-2`);
  await settle(1_500);
  await say(channel, "UBOB", `the pothos on my shelf is still going strong ${marker}-3`);
  await settle(1_500);
}

describe("initiative", () => {
  it("is off by default: messages addressed to nobody are decided as before and never answered", async () => {
    const channel = newChannel();
    const logs = vi.spyOn(console, "log");
    await conversation(channel, logs, `off-${channel}`);
    expect(decisions(logs, channel).filter((d) => d.includes("initiative"))).toEqual([]);
    logs.mockRestore();
  });

  it("where a channel allows it, answers unprompted with [SKIP] allowed, logs the score, and stops at the hourly cap", async () => {
    const channel = newChannel();
    const marker = `on-${channel}`;
    expect(await parley(channel, "initiative on")).toMatch(/^Done\. Initiative: on/);
    expect(await parley(channel, "eagerness 100")).toBe(
      "Done. Initiative: on (eagerness 100). Rescue: off. Feedback: off.",
    );
    // The first unprompted turn: the model would rather keep out of it.
    // (The later message first: its prompt holds the earlier one too.)
    await scriptModel(
      { match: `${marker}-2`, reply: "Snake plants rot when overwatered: every three weeks is plenty." },
      { match: `${marker}-1`, reply: "[SKIP]" },
    );
    const logs = vi.spyOn(console, "log");
    await conversation(channel, logs, marker);
    const unprompted = lines(logs, channel, "decision").filter((d) => d.reason === "initiative");
    expect(unprompted.length).toBeGreaterThanOrEqual(3);
    for (const d of unprompted) expect(d).toMatchObject({ respond: "yes", score: expect.any(Number) });
    // Never a required answer: the model may stay quiet, and did the first time.
    const [request] = await modelRequests(`${marker}-1`);
    expect(JSON.stringify(request)).toContain(SKIP_INSTRUCTION);
    await eventually(async () => lines(logs, channel, "job_ended").length >= 4, 15_000, "every job's end");
    const outcomes = lines(logs, channel, "job_ended").map((l) => l.outcome);
    expect(outcomes).toEqual(["answered", "skipped", "answered", "skipped"]);
    // INITIATIVE_MAX_PER_HOUR is 2: the [SKIP] counted, one answer, then the cap.
    expect(lines(logs, channel, "initiative_held").map((l) => l.why)).toContain("hourly_cap");
    expect(await slackPosts(channel)).toHaveLength(2);
    logs.mockRestore();
  });

  it("never speaks twice in a row: of two messages that came before it answered, only the first gets a word", async () => {
    const channel = newChannel();
    const marker = `row-${channel}`;
    await parley(channel, "initiative on");
    await parley(channel, "eagerness 100");
    await scriptModel(
      { match: `${marker}-b`, reply: "Both are easy to keep." },
      { match: `${marker}-a`, reply: "A pothos would do well there." },
    );
    const logs = vi.spyOn(console, "log");
    await say(channel, "UALICE", `<@${BOT_USER_ID}> which houseplants survive a dark flat? ${marker}`);
    await eventually(async () => answered(logs, channel) === 1, 15_000, "the answer to the mention");
    await say(channel, "UBOB", `my hallway gets no sun at all ${marker}-a`);
    await say(channel, "UCAROL", `neither does my bathroom ${marker}-b`);
    await eventually(async () => lines(logs, channel, "job_ended").length === 3, 15_000, "every job's end");
    expect(decisions(logs, channel)).toEqual(["yes direct_mention", "yes initiative", "yes initiative"]);
    expect(lines(logs, channel, "initiative_held").map((l) => l.why)).toEqual(["bot_spoke_since"]);
    expect(await slackPosts(channel)).toHaveLength(2);
    logs.mockRestore();
  });
});
