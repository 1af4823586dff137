/**
 * The reply job's ways out after its model call (lib/jobs/reply-job.ts, lib/jobs/post.ts, lib/jobs/failure.ts): a
 * model that keeps failing (one apology, from the failure callback), a post that fails or whose answer is lost (the
 * retry finishes the same text), and a tool that needs a person's approval (the question is the answer). As a
 * person in the place sees it, over the runtime's real stores (test/support/job-flow.ts).
 */
import { describe, expect, it } from "vitest";
import { CLAIM_TTL_SECONDS } from "../../lib/conversation/store-options.ts";
import { APOLOGY, approvalQuestion } from "../../lib/notices.ts";
import { defineTool } from "../../lib/tools/tool.ts";
import * as z from "../../lib/zod.ts";
import { jobFlow } from "../support/job-flow.ts";

/** QStash's first delivery and its three retries (lib/queue/publish.ts). */
const DELIVERIES = 4;

describe("a model that fails on every delivery", () => {
  it("leaves the person one apology, from the failure callback, and nothing before it", async () => {
    const flow = jobFlow();
    const job = await flow.say("UALICE", "what changed in the release?", "mention");
    for (let i = 0; i < DELIVERIES; i++) {
      flow.model.script({ fails: "the model answered 500" });
      await expect(flow.run(job!)).rejects.toThrow("the model answered 500");
    }
    // Each retry got the claim back and asked the model again; nobody saw anything yet.
    expect(flow.model.calls).toHaveLength(DELIVERIES);
    expect(flow.replier.posted).toEqual([]);
    expect(await flow.failed(job!)).toBe(true);
    expect(await flow.failed(job!)).toBe(false);
    expect(flow.replier.texts()).toEqual([APOLOGY]);
  });

  it("is answered by a retry once it recovers, and the failure callback then posts nothing", async () => {
    const flow = jobFlow();
    const job = await flow.say("UALICE", "what changed in the release?", "mention");
    flow.model.script({ fails: "the model timed out" });
    await expect(flow.run(job!)).rejects.toThrow("the model timed out");
    flow.model.script({ answer: "Faster startup and a new /catchup." });
    expect(await flow.run(job!)).toBe("answered");
    expect(await flow.failed(job!)).toBe(false);
    expect(flow.replier.texts()).toEqual(["Faster startup and a new /catchup."]);
  });
});

describe("a post that fails", () => {
  it("is posted by the retry with the same text: the model is not asked again", async () => {
    const flow = jobFlow();
    flow.model.script({ answer: "It is in the wiki under Runbooks." });
    const job = await flow.say("UALICE", "where is the runbook?", "mention");
    flow.replier.fail();
    await expect(flow.run(job!)).rejects.toThrow("the platform answered 500");
    expect(flow.replier.posted).toEqual([]);
    expect(await flow.run(job!)).toBe("answered");
    expect(flow.replier.texts()).toEqual(["It is in the wiki under Runbooks."]);
    expect(flow.model.calls).toHaveLength(1);
  });

  it("whose answer was lost after it landed is found by the retry, not posted twice, and never apologised for", async () => {
    const flow = jobFlow();
    flow.model.script({ answer: "It is in the wiki under Runbooks." });
    const job = await flow.say("UALICE", "where is the runbook?", "mention");
    flow.replier.fail({ lost: true });
    await expect(flow.run(job!)).rejects.toThrow("the platform answered 500");
    expect(await flow.failed(job!)).toBe(false);
    expect(flow.replier.texts()).toEqual(["It is in the wiki under Runbooks."]);
  });
});

type Replies = ReturnType<typeof jobFlow>["rt"]["store"]["replies"];

/**
 * Redis fails once at `step` after the post (recording the answer; none: the attempt fails on its own), then once at
 * the release that hands the claim and the draft back: the next delivery finds only what the attempt saved itself.
 */
function failRedisTwice(replies: Replies, step?: "recordReply"): void {
  for (const name of [step, "releaseClaim"] as const) {
    if (!name) continue;
    const real = replies[name].bind(replies) as (...args: unknown[]) => Promise<never>;
    let failed = false;
    replies[name] = (async (...args: unknown[]) => {
      if (failed) return real(...args);
      failed = true;
      throw new Error("UpstashError ERR");
    }) as never;
  }
}

describe("a part posted where the platform cannot look for it (Telegram), then Redis fails twice (bench:chaos seed 8)", () => {
  it("is not posted again by the retry, though the attempt failed after it and its claim's release failed too", async () => {
    const flow = jobFlow({ replier: { unfindable: true } });
    flow.model.script({ answer: "It is in the wiki under Runbooks." });
    const job = await flow.say("UALICE", "where is the runbook?", "mention");
    failRedisTwice(flow.rt.store.replies, "recordReply");
    await expect(flow.run(job!)).rejects.toThrow("UpstashError ERR");
    expect(flow.events.map((e) => e.event)).toContain("claim_release_failed");
    // QStash's next delivery comes after the claim that was never handed back ran out.
    await flow.ages((CLAIM_TTL_SECONDS + 1) * 1000);
    expect(await flow.run(job!)).toBe("answered");
    expect(flow.replier.texts()).toEqual(["It is in the wiki under Runbooks."]);
    expect(flow.model.calls).toHaveLength(1);
  });

  it("is not sent again when it was a streamed draft's message (a private chat)", async () => {
    const flow = jobFlow({ settings: { STREAMING: "true" }, replier: { streams: "draft" } });
    flow.model.script({ answer: "It is in the wiki under Runbooks." });
    const job = await flow.say("UALICE", "where is the runbook?", "mention");
    failRedisTwice(flow.rt.store.replies, "recordReply");
    await expect(flow.run(job!)).rejects.toThrow("UpstashError ERR");
    await flow.ages((CLAIM_TTL_SECONDS + 1) * 1000);
    expect(await flow.run(job!)).toBe("answered");
    expect(flow.replier.texts()).toEqual(["It is in the wiki under Runbooks."]);
  });

  it("leaves no opening beside the answer when a stream's first words were posted, then the model broke off (a group, seed 9)", async () => {
    const flow = jobFlow({ settings: { STREAMING: "true" }, replier: { streams: "message" } });
    flow.model.script({ cutShort: "It is" });
    const job = await flow.say("UALICE", "where is the runbook?", "mention");
    failRedisTwice(flow.rt.store.replies);
    await expect(flow.run(job!)).rejects.toThrow("the model's stream was cut short");
    await flow.ages((CLAIM_TTL_SECONDS + 1) * 1000);
    flow.model.script({ answer: "It is in the wiki under Runbooks." });
    expect(await flow.run(job!)).toBe("answered");
    expect(flow.replier.texts()).toEqual(["It is in the wiki under Runbooks."]);
  });
});

describe("a tool that needs a person's approval", () => {
  let ran = 0;
  const createTicket = defineTool({
    name: "create_ticket",
    description: "Opens a ticket in the helpdesk.",
    args: z.object({ title: z.string() }),
    confirm: true,
    async run() {
      ran += 1;
      return "ticket 42";
    },
  });

  it("is not run: the answer is the question, and the approval's expiry is scheduled", async () => {
    const flow = jobFlow({ tools: [createTicket], replier: { approvals: "reaction" } });
    flow.model.script({ tools: [{ name: "create_ticket", arguments: '{"title":"printer on fire"}' }] });
    const job = await flow.say("UALICE", "open a ticket: the printer is on fire", "mention");
    expect(await flow.run(job!)).toBe("answered");
    const minutes = flow.rt.settings.APPROVAL_TTL_MINUTES;
    expect(flow.replier.texts()).toEqual([
      approvalQuestion("create_ticket", '{"title":"printer on fire"}', minutes, "reaction"),
    ]);
    expect(ran).toBe(0);
    const continuation = flow.published.filter((p) => p.job.kind === "approval");
    expect(continuation).toMatchObject([{ delaySeconds: minutes * 60 + 5, step: 1 }]);
    expect(continuation[0]!.job.approvalQuestion).toBe(flow.replier.posted[0]!.id);
  });

  it("is shown only once it is the draft's text: an attempt failing before leaves no question for the apology to replace (bench:chaos seed 11)", async () => {
    const flow = jobFlow({
      settings: { STREAMING: "true" },
      tools: [createTicket],
      replier: { approvals: "press", streams: "message" },
    });
    flow.model.script({ tools: [{ name: "create_ticket", arguments: '{"title":"printer on fire"}' }] });
    const job = await flow.say("UALICE", "open a ticket: the printer is on fire", "mention");
    // Redis fails as the model call's tokens are settled, after the question was written and before it is posted.
    const budgets = flow.rt.budgets;
    const reserve = budgets.reserve.bind(budgets);
    budgets.reserve = async (...args) => {
      const verdict = await reserve(...args);
      if (!verdict.allowed) return verdict;
      const failing = {
        settle: async () => {
          throw new Error("UpstashError ERR");
        },
      };
      return { ...verdict, reservation: failing };
    };
    await expect(flow.run(job!)).rejects.toThrow("UpstashError ERR");
    expect(await flow.failed(job!)).toBe(true);
    expect(flow.replier.events.filter((e) => e.kind === "posted" || e.kind === "edited")).toMatchObject([
      { kind: "posted", message: { text: APOLOGY } },
    ]);
    expect(ran).toBe(0);
  });

  it("is not offered where nobody can approve it: the model answers in words", async () => {
    const flow = jobFlow({ tools: [createTicket] });
    flow.model.script({ answer: "I cannot open tickets here; the helpdesk is at #help." });
    const job = await flow.say("UALICE", "open a ticket: the printer is on fire", "mention");
    expect(await flow.run(job!)).toBe("answered");
    expect(flow.model.calls.map((c) => c.call)).toEqual(["generate"]);
    expect(flow.replier.texts()).toEqual(["I cannot open tickets here; the helpdesk is at #help."]);
  });
});
