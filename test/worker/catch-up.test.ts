/**
 * @module
 * "Catch me up" on Slack at production timing (issue #25, item 2): the place's messages since the asker's last one
 * are read in pages through `conversations.history`, summarized in chunks that fit the prompt budget (a small one
 * here, so that the window takes several chunks, and so several QStash steps), then once more into one answer
 * whose citations are links to the messages. A step that fails is retried by QStash and does only what was left:
 * no page read twice, no chunk summarized twice, one answer. Another channel's talk never reaches it.
 */
import { describe, expect, it } from "vitest";
import { CATCH_UP_IN_DM } from "../../lib/catch-up/step.ts";
import { CATCH_UP_INSTRUCTION_TAIL } from "../../lib/catch-up/model.ts";
import { injectedFaults, scriptFault } from "../support/fault-control.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { QSTASH_RETRY_DELAYS_MS, ALL_RETRIES_MS, prodTimingSuite } from "../support/prod-timing.ts";
import { INSTALLABLE, installWorkspace, SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import { newSlackPlace, signedSlackRequest, slackMention, slackMessageEvent, slackPosts } from "../support/slack.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "catchup";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const [FIRST_RETRY_MS] = QSTASH_RETRY_DELAYS_MS;
/**
 * Small enough that 120 short messages take several chunks. Each place is a workspace of its own: Slack's Tier 3
 * budget for conversations.history counts per workspace, and these tests read hundreds of messages.
 */
const kit = prodTimingSuite(SUITE, { ...INSTALLABLE, PROMPT_TOKEN_BUDGET: "1500" });

pumpJobsDuringSuite(kit.env, SUITE);

/** A message Slack has that the bot never saw arrive, `secondsAgo` before now. */
async function inSlack(
  place: { team: string; channel: string },
  user: string,
  text: string,
  secondsAgo: number,
): Promise<string> {
  const ts = `${Math.floor(Date.now() / 1000) - secondsAgo}.000100`;
  const res = await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, {
    method: "POST",
    body: JSON.stringify({ team: place.team, channel: place.channel, user, text, ts }),
  });
  expect(res.ok).toBe(true);
  return ts;
}

/** A channel in a workspace installed for it alone. */
async function installedPlace(): Promise<ReturnType<typeof newSlackPlace>> {
  const place = newSlackPlace("CU");
  await installWorkspace(kit.env, { id: place.team, name: `Catch-up ${place.id}` });
  return place;
}

async function mention(place: { team: string; channel: string }, user: string, text: string): Promise<void> {
  const event = slackMention({ ...place, user, text });
  expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
}

const historyCalls = async (channel: string) =>
  (
    (await (
      await fetch(`${SLACK_FAKE_ORIGIN}/__api?method=conversations.history&channel=${channel}`)
    ).json()) as unknown[]
  ).length;
const catchUpCalls = async (marker: string) =>
  (await modelRequests(marker)).filter((r) => r.messages.at(-1)!.content.endsWith(CATCH_UP_INSTRUCTION_TAIL));

/**
 * A channel where Carol last spoke two hours ago, and Alice and Bob wrote 120 messages since (two pages of
 * history); the model notes each chunk with `note-<id>` and answers the notes citing messages 1 and
 * 120 (with `combineFailsOnce`, after failing once).
 */
async function busyChannel(opts: { combineFailsOnce?: boolean } = {}) {
  const place = await installedPlace();
  const tag = `cu-${place.id}`;
  await inSlack(place, "UALICE", `before carol spoke old-${place.id}`, 3 * 3600);
  await inSlack(place, "UCAROL", "I'm off to lunch", 2 * 3600);
  const ts: string[] = [];
  for (let i = 0; i < 120; i++)
    ts.push(await inSlack(place, i % 2 ? "UBOB" : "UALICE", `deploy talk ${i} ${tag}`, 7000 - i * 50));
  await scriptModel(
    ...(opts.combineFailsOnce ? [{ match: `note-${place.id}`, status: 500, times: 1 }] : []),
    { match: tag, reply: `Topics:\n- the deploy [1] note-${place.id}` },
    {
      match: `note-${place.id}`,
      reply: "Decisions:\n- roll back to 4.12 [1]\nOpen questions:\n- kill the query? [120]",
    },
  );
  return { place, tag, ts };
}

/** A message's permalink on the workspace's own domain (the fake's auth.test names it after the workspace's name). */
const link = (place: { id: string; channel: string }, ts: string) =>
  `https://catch-up-${place.id.toLowerCase()}.slack.com/archives/${place.channel}/p${ts.replace(".", "")}`;

describe("catch me up on Slack", () => {
  it("summarizes the channel since the asker's last message in pages and chunks, answered once with links", async () => {
    const { place, tag, ts } = await busyChannel();
    const elsewhere = newSlackPlace("CU");
    await inSlack(elsewhere, "UDAVE", `another channel's secret ${tag}-other`, 600);

    await mention(place, "UCAROL", "catch me up");
    const settled = await kit.deliveriesSettled();
    const steps = settled.deliveries.filter((d) => d.path === REPLY_PATH);
    const chunkCalls = (await catchUpCalls(tag)).length;
    // Several chunks, one step each, and the step that combines their notes.
    expect(chunkCalls).toBeGreaterThan(1);
    expect(steps).toHaveLength(chunkCalls + 1);
    expect(steps.every((d) => d.status === 200)).toBe(true);

    const posts = await slackPosts(place.channel);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain(`roll back to 4.12 ${link(place, ts[0]!)}`);
    expect(posts[0]!.text).toContain(`kill the query? ${link(place, ts[119]!)}`);
    // Two pages of 100 and the empty one that ends the window; nothing from before Carol's lunch, or elsewhere.
    expect(await historyCalls(place.channel)).toBe(2);
    const sent = JSON.stringify(await modelRequests(tag));
    expect(sent).not.toContain(`old-${place.id}`);
    expect(sent).not.toContain("-other");
    expect(await catchUpCalls(`note-${place.id}`)).toHaveLength(1);
    expect(await kit.redis.keys(`${kit.keyPrefix}catchup:*${place.channel}*`)).toEqual([]);
  });

  it("whose last step fails is retried by QStash without reading a page or summarizing a chunk again", async () => {
    const { place, tag } = await busyChannel({ combineFailsOnce: true });
    await mention(place, "UCAROL", "@Parley what did I miss?");
    const first = await kit.deliveriesSettled();
    expect(first.deliveries.at(-1)).toMatchObject({ path: REPLY_PATH, status: 500, outcome: "retry" });
    expect(await slackPosts(place.channel)).toEqual([]);
    const chunkCalls = (await catchUpCalls(tag)).length;
    const pages = await historyCalls(place.channel);

    const retry = await kit.timePasses(FIRST_RETRY_MS);
    expect(retry.deliveries).toMatchObject([{ path: REPLY_PATH, retried: 1, status: 200, outcome: "done" }]);
    expect(await slackPosts(place.channel)).toHaveLength(1);
    expect((await catchUpCalls(tag)).length).toBe(chunkCalls);
    expect(await historyCalls(place.channel)).toBe(pages);
    // The failed call and the retry's: the combining call only.
    expect(await catchUpCalls(`note-${place.id}`)).toHaveLength(2);
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await slackPosts(place.channel)).toHaveLength(1);
  });

  it("whose steps QStash delivers twice or redelivers summarizes each chunk once and answers once", async () => {
    const { place, tag } = await busyChannel();
    // The second step arrives twice in a row; the third's answer is lost, so QStash delivers it again 12 s later.
    await scriptFault(kit.qstashUrl, {
      fault: "duplicate",
      concurrent: false,
      path: REPLY_PATH,
      bodyContains: place.channel,
      after: 1,
    });
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: REPLY_PATH, bodyContains: place.channel, after: 2 });
    await mention(place, "UCAROL", "tl;dr of this channel");
    await kit.deliveriesSettled();
    await kit.timePasses(FIRST_RETRY_MS);
    expect(await injectedFaults(kit.qstashUrl, { fault: "duplicate" })).toHaveLength(1);
    expect(await injectedFaults(kit.qstashUrl, { fault: "lose_answer" })).toHaveLength(1);

    expect(await slackPosts(place.channel)).toHaveLength(1);
    expect(await historyCalls(place.channel)).toBe(2);
    // Every message went to the model in exactly one chunk, and the notes were combined once.
    const chunks = (await catchUpCalls(tag)).map((r) => r.messages.at(-1)!.content);
    for (let i = 0; i < 120; i++) expect(chunks.filter((c) => c.includes(`deploy talk ${i} ${tag}`))).toHaveLength(1);
    expect(await catchUpCalls(`note-${place.id}`)).toHaveLength(1);
  });

  it("over a busy day reads the newest CATCHUP_MAX_MESSAGES (500) in five pages, each message in one chunk", async () => {
    const place = await installedPlace();
    const tag = `cu-${place.id}`;
    for (let i = 0; i < 520; i++) await inSlack(place, i % 2 ? "UBOB" : "UALICE", `m${i} ${tag}`, 20_000 - i * 30);
    await scriptModel(
      { match: tag, reply: `Topics:\n- busy [1] note-${place.id}` },
      { match: `note-${place.id}`, reply: "Topics:\n- a busy day [500]" },
    );
    await mention(place, "UCAROL", "summarize the last 12 hours");
    await kit.deliveriesSettled();

    expect(await slackPosts(place.channel)).toHaveLength(1);
    expect(await historyCalls(place.channel)).toBe(5);
    const chunks = (await catchUpCalls(tag)).map((r) => r.messages.at(-1)!.content);
    for (let i = 0; i < 520; i++)
      expect(chunks.filter((c) => c.includes(`"m${i} ${tag}"`))).toHaveLength(i < 20 ? 0 : 1);
    expect(await catchUpCalls(`note-${place.id}`)).toHaveLength(1);
  });

  it("in a DM says what it can do there, reading nothing", async () => {
    const place = { ...(await installedPlace()), channel: `DCU${Date.now().toString(36).toUpperCase()}` };
    const event = slackMessageEvent({ ...place, user: "UCAROL", text: "catch me up", channelType: "im" });
    expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
    await kit.deliveriesSettled();
    expect((await slackPosts(place.channel)).map((p) => p.text)).toEqual([CATCH_UP_IN_DM]);
    expect(await historyCalls(place.channel)).toBe(0);
  });
});
