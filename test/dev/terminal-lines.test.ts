import { describe, expect, it } from "vitest";
import { terminalLine } from "../../dev/terminal-lines.ts";

const AT = new Date(2026, 0, 2, 14, 3, 7);
const decision = JSON.stringify({
  event: "decision",
  level: "info",
  platform: "slack",
  tenant: "T1",
  channel: "C1",
  message: "C1:1.000100",
  author: "U0ALICE",
  respond: "yes",
  reason: "direct_mention",
});
const answered = JSON.stringify({
  event: "reply_posted",
  level: "info",
  platform: "slack",
  trigger: "C1:1.000100",
  parts: 2,
  prompt_tokens: 231,
});

describe("what npm run dev prints after its start-up table", () => {
  it("turns a decision and an answer into one readable line each", () => {
    expect(terminalLine(decision, "readable", AT)).toBe(
      "14:03:07  slack        yes · direct_mention      message C1:1.000100 from U0ALICE",
    );
    expect(terminalLine(answered, "readable", AT)).toBe(
      "14:03:07  slack        answered                  message C1:1.000100 (2 parts, prompt 231 tokens)",
    );
  });

  it("says why a job posted nothing, and not again when it answered", () => {
    const ended = (outcome: string) =>
      JSON.stringify({ event: "job_ended", level: "info", platform: "sms", trigger: "SM1", outcome });
    expect(terminalLine(ended("rate_limited"), "readable", AT)).toContain("no answer · rate_limited");
    expect(terminalLine(ended("answered"), "readable", AT)).toBeNull();
  });

  it("turns each step of a confirm tool's approval into a line: asked, a reaction that decided it or not, its end", () => {
    const line = (fields: Record<string, unknown>) =>
      terminalLine(JSON.stringify({ level: "info", platform: "slack", ...fields }), "readable", AT);
    expect(
      line({ event: "approval_opened", tool: "create_ticket", question: "2.000001", trigger: "C1:1.000100" }),
    ).toBe("14:03:07  slack        approval asked · create_ticket question 2.000001 for message C1:1.000100");
    expect(
      line({ event: "approval_reaction", message: "2.000001", verdict: "approve", state: "pending", decided: false }),
    ).toBe("14:03:07  slack        ✅ ignored · pending       question 2.000001 (only the asker's, in time, decides)");
    expect(
      line({ event: "approval_reaction", message: "2.000001", verdict: "approve", state: "approved", decided: true }),
    ).toBe("14:03:07  slack        ✅ approved                question 2.000001");
    expect(line({ event: "approval_ended", trigger: "C1:1.000100", outcome: "approval_done" })).toBe(
      "14:03:07  slack        approval · approval_done  message C1:1.000100",
    );
  });

  it("shows a warning from wrangler's coloured stderr line, with its fields", () => {
    const line = `\u001b[33m▲ \u001b[43;33m[\u001b[43;30mWARNING\u001b[43;33m]\u001b[0m \u001b[1m{"event":"job_gave_up","level":"warn","code":"discord_10015"}\u001b[0m`;
    expect(terminalLine(line, "readable", AT)).toBe("14:03:07  warn: job_gave_up  code=discord_10015");
    expect(terminalLine(line, "json", AT)).toBe('{"event":"job_gave_up","level":"warn","code":"discord_10015"}');
  });

  it("leaves out other info lines, wrangler's banner, bindings and request lines, but keeps what it does not know", () => {
    for (const noise of [
      JSON.stringify({ event: "job_published", level: "info" }),
      " ⛅️ wrangler 4.164.0",
      'env.QSTASH_TOKEN ("(hidden)")                Environment Variable      local',
      "[wrangler:info] GET /admin/conversations/slack%7CT%7CC%7C 200 OK (12ms)",
      "",
    ]) {
      expect(terminalLine(noise, "readable", AT)).toBeNull();
    }
    expect(terminalLine("✘ [ERROR] Build failed with 1 error:", "readable", AT)).toBe(
      "✘ [ERROR] Build failed with 1 error:",
    );
  });

  it("passes the Worker's log lines through as they are with --json", () => {
    expect(terminalLine(decision, "json", AT)).toBe(decision);
  });
});
