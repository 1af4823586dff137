/**
 * Each way out of a reply job before or instead of its answer (lib/jobs/reply-job.ts, lib/jobs/answer.ts), as a
 * person in the place sees it: what was posted, or that nothing was. The runtime's real stores on redis-server, a
 * scripted model and an in-memory platform (test/support/job-flow.ts); the end-to-end promises stay in test/worker.
 */
import { describe, expect, it } from "vitest";
import { RetryLater } from "../../lib/errors.ts";
import { APOLOGY, BUDGET_NOTICE, RATE_LIMIT_NOTICE } from "../../lib/notices.ts";
import type { Job } from "../../lib/queue/job.ts";
import { type Flow, jobFlow } from "../support/job-flow.ts";

/** Alice asks the bot, it answers, and Carol (a bystander) asks on 30 s later, unaddressed: the judge's to decide. */
async function judgedFollowUp(flow: Flow): Promise<Job> {
  flow.model.script({ answer: "run `ss -tlnp`, it lists listening TCP ports with their processes" });
  const asked = await flow.say("UALICE", "parley: how do I list open ports on this box?", "mention");
  expect(await flow.run(asked!)).toBe("answered");
  flow.passes(29_000);
  const judged = await flow.say("UCAROL", "and netstat?");
  expect(judged?.kind).toBe("judge");
  return judged!;
}

describe("an answer already given", () => {
  it("is not given again: a redelivery of the job finds the trigger answered and posts nothing", async () => {
    const flow = jobFlow();
    flow.model.script({ answer: "Use `ss -tlnp`." });
    const job = await flow.say("UALICE", "how do I list open ports?", "mention");
    expect(await flow.run(job!)).toBe("answered");
    expect(await flow.run(job!)).toBe("already_answered");
    // The working sign went on the question and came off once the answer was out; the redelivery showed none.
    expect(flow.replier.events.map((e) => e.kind)).toEqual(["sign_up", "posted", "sign_down"]);
    expect(flow.replier.texts()).toEqual(["Use `ss -tlnp`."]);
    expect(flow.model.calls).toHaveLength(1);
  });

  it("covers the person's second mention that had arrived when it read the conversation: one answer to both", async () => {
    const flow = jobFlow();
    flow.model.script({ answer: "Both: `ss -tlnp` for TCP, `ss -ulnp` for UDP." });
    const first = await flow.say("UALICE", "how do I list open TCP ports?", "mention");
    const second = await flow.say("UALICE", "and the UDP ones?", "mention");
    expect(await flow.run(first!)).toBe("answered");
    expect(await flow.run(second!)).toBe("covered");
    expect(flow.replier.texts()).toEqual(["Both: `ss -tlnp` for TCP, `ss -ulnp` for UDP."]);
    expect(flow.model.promptTexts()[0]).toContain("and the UDP ones?");
  });
});

describe("an unprompted answer written but not yet posted when another answer took its message", () => {
  it("is held by its retry, as a new one would be (bench:chaos seed 1 at 20%, an initiative message answered twice)", async () => {
    const flow = jobFlow();
    const mention = await flow.say("UALICE", "how do I list open TCP ports?", "mention");
    const later = await flow.say("UALICE", "and the UDP ones?", "mention");
    // The job the decider makes for a later message addressed to nobody, where the place allows initiative.
    const unprompted = { ...later!, reason: "initiative" as const, required: false };
    // It writes its answer first; its post is refused, so nothing of it went out.
    flow.model.script({ answer: "UDP: `ss -ulnp`." });
    flow.replier.fail({ error: new RetryLater("rate limited", 1) });
    await expect(flow.run(unprompted)).rejects.toThrow("rate limited");
    // The mention's job reads the conversation now: its answer is for the later message too.
    flow.model.script({ answer: "Both: `ss -tlnp` for TCP, `ss -ulnp` for UDP." });
    expect(await flow.run(mention!)).toBe("answered");
    expect(await flow.run(unprompted)).toBe("skipped");
    expect(flow.replier.texts()).toEqual(["Both: `ss -tlnp` for TCP, `ss -ulnp` for UDP."]);
  });
});

describe("a burst of texts", () => {
  it("gets one answer, from the last text's job: the earlier ones are superseded", async () => {
    const flow = jobFlow({ ingest: { delaySeconds: 4, alwaysAnswer: true } });
    flow.model.script({ answer: "A table for four at 8pm: booked." });
    const first = await flow.say("UALICE", "a table for tonight", "dm");
    const last = await flow.say("UALICE", "for four, around 8pm", "dm");
    expect(await flow.run(first!)).toBe("superseded");
    expect(flow.replier.posted).toEqual([]);
    expect(flow.model.calls).toEqual([]);
    expect(await flow.run(last!)).toBe("answered");
    expect(flow.replier.texts()).toEqual(["A table for four at 8pm: booked."]);
    expect(flow.model.promptTexts()[0]).toContain("a table for tonight");
  });
});

describe("a follow-up the bot may answer", () => {
  it("gets nothing posted when the model stays quiet ([SKIP])", async () => {
    const flow = jobFlow();
    flow.model.script({ answer: "run `ss -tlnp`" });
    expect(await flow.run((await flow.say("UALICE", "parley: how do I list open ports?", "mention"))!)).toBe(
      "answered",
    );
    flow.passes(29_000);
    const followUp = await flow.say("UALICE", "and netstat?");
    expect(followUp).toMatchObject({ kind: "reply", required: false });
    flow.model.script({ answer: null });
    expect(await flow.run(followUp!)).toBe("skipped");
    expect(flow.replier.texts()).toEqual(["run `ss -tlnp`"]);
  });
});

describe("a person over the reply rate", () => {
  it("is told once, then gets nothing: no model call for either", async () => {
    const flow = jobFlow({ settings: { RATE_LIMIT_REPLIES: "1" } });
    flow.model.script({ answer: "One." });
    for (const question of ["one?", "two?", "three?"])
      await flow.run((await flow.say("UALICE", `parley: ${question}`, "mention"))!);
    expect(flow.replier.texts()).toEqual(["One.", RATE_LIMIT_NOTICE]);
    expect(flow.model.calls).toHaveLength(1);
  });
});

describe("a person who asked not to be messaged after writing", () => {
  it("gets nothing: no model call, nothing sent", async () => {
    const flow = jobFlow({ ingest: { optOuts: true, alwaysAnswer: true } });
    const job = await flow.say("UALICE", "what are your opening hours?", "dm");
    await flow.rt.optOuts.record(flow.place, "UALICE", "opt_out");
    expect(await flow.run(job!)).toBe("unreachable");
    expect(flow.replier.posted).toEqual([]);
    expect(flow.model.calls).toEqual([]);
  });
});

describe("a tenant past its daily token budget", () => {
  it("is told once, then gets no model call and nothing posted", async () => {
    const flow = jobFlow({ settings: { TENANT_DAILY_TOKEN_BUDGET: "50" } });
    flow.model.script({ answer: "First answer.", tokens: 100 });
    expect(await flow.run((await flow.say("UONE", "first question", "mention"))!)).toBe("answered");
    expect(await flow.run((await flow.say("UTWO", "second question", "mention"))!)).toBe("over_budget");
    expect(await flow.run((await flow.say("UONE", "third question", "mention"))!)).toBe("over_budget");
    expect(flow.replier.texts()).toEqual(["First answer.", BUDGET_NOTICE]);
    expect(flow.model.calls).toHaveLength(1);
  });
});

describe("the judge", () => {
  it("saying the message is not for the bot ends the job with nothing posted, and a redelivery asks it no more", async () => {
    const flow = jobFlow({ settings: { USE_LLM_JUDGE: "true" } });
    const judged = await judgedFollowUp(flow);
    flow.model.script({ judge: false });
    expect(await flow.run(judged)).toBe("judge_no");
    expect(await flow.run(judged)).toBe("already_answered");
    expect(flow.replier.texts()).toHaveLength(1);
    // A judged message never shows the working sign: the judge may say no.
    expect(flow.replier.events.filter((e) => "triggerId" in e && e.triggerId === judged.trigger.id)).toEqual([]);
    expect(flow.model.calls.map((c) => c.call)).toEqual(["generate", "judge"]);
  });

  it("saying yes lets the answer go out", async () => {
    const flow = jobFlow({ settings: { USE_LLM_JUDGE: "true" } });
    const judged = await judgedFollowUp(flow);
    flow.model.script({ judge: true }, { answer: "`netstat -tlnp` lists the same, where ss is missing." });
    expect(await flow.run(judged)).toBe("answered");
    expect(flow.replier.texts()[1]).toBe("`netstat -tlnp` lists the same, where ss is missing.");
  });
});

describe("a conversation that expired before its job ran", () => {
  it("leaves the person who mentioned the bot one apology, however often the job comes", async () => {
    const flow = jobFlow();
    const job = await flow.say("UALICE", "remember me?", "mention");
    await flow.expire();
    expect(await flow.run(job!)).toBe("apologised");
    expect(await flow.run(job!)).toBe("already_answered");
    expect(flow.replier.texts()).toEqual([APOLOGY]);
    expect(flow.model.calls).toEqual([]);
  });

  it("ends a job nobody was owed an answer by with nothing posted and no model call", async () => {
    const flow = jobFlow({ settings: { USE_LLM_JUDGE: "true" } });
    const judged = await judgedFollowUp(flow);
    await flow.expire();
    expect(await flow.run(judged)).toBe("conversation_gone");
    expect(flow.replier.texts()).toHaveLength(1);
    expect(flow.model.calls).toHaveLength(1);
  });
});
