/**
 * @module
 * What a catch-up shows while it works and what the admin view keeps of it (issue #44, items 2 and 6), at
 * production timing with streaming on: where the platform edits an answer, a progress line in the answer's own
 * message ("Reading 90 messages… (part 1 of 3)", then "Summing up 90 messages…"), which the summary then takes the
 * place of (one message, never a second); and the answer's trace lists every model call of the catch-up, each
 * chunk's and the combining one, with its prompt and what it used.
 */
import { describe, expect, it } from "vitest";
import type { AnswerTrace } from "../../lib/conversation/answer-trace.ts";
import { CATCH_UP_INSTRUCTION_TAIL } from "../../lib/catch-up/model.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { INSTALLABLE, installWorkspace, SLACK_FAKE_ORIGIN } from "../support/slack-install.ts";
import { newSlackPlace, signedSlackRequest, slackMention, slackPosts } from "../support/slack.ts";
import { botMessages } from "../support/streams.ts";
import { callWorker, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "catchupprogress";
const ADMIN_TOKEN = "catch-up-progress-admin-token-0123456789";
const kit = prodTimingSuite(SUITE, {
  ...INSTALLABLE,
  PROMPT_TOKEN_BUDGET: "1500",
  STREAMING: "true",
  ADMIN_TOKEN,
});
const MESSAGES = 90;

pumpJobsDuringSuite(kit.env, SUITE);

/** A channel of a workspace of its own where Carol spoke an hour ago and Dana wrote MESSAGES messages since. */
async function talkedChannel(): Promise<{ team: string; channel: string; id: string; tag: string }> {
  const place = newSlackPlace("CP");
  await installWorkspace(kit.env, { id: place.team, name: `Progress ${place.id}` });
  const tag = `cp-${place.id}`;
  const now = Math.floor(Date.now() / 1000);
  const say = async (user: string, text: string, secondsAgo: number) => {
    const body = { team: place.team, channel: place.channel, user, text, ts: `${now - secondsAgo}.000100` };
    expect((await fetch(`${SLACK_FAKE_ORIGIN}/__messages`, { method: "POST", body: JSON.stringify(body) })).ok).toBe(
      true,
    );
  };
  await say("UCAROL", "back in an hour", 3_600);
  for (let i = 0; i < MESSAGES; i++) await say("UDANA", `the release plan, point ${i} ${tag}`, 3_000 - i * 20);
  await scriptModel(
    { match: tag, reply: `Topics:\n- the release [1] note-${place.id}` },
    { match: `note-${place.id}`, reply: "Decisions:\n- ship on Friday [1]" },
  );
  return { ...place, tag };
}

describe("a catch-up where the platform edits its answers", () => {
  it("shows its progress in the answer's message, which the summary then takes the place of", async () => {
    const place = await talkedChannel();
    const event = slackMention({ ...place, user: "UCAROL", text: "catch me up" });
    expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
    await kit.deliveriesSettled();

    const chunks = (await modelRequests(place.tag)).filter((r) =>
      r.messages.at(-1)!.content.endsWith(CATCH_UP_INSTRUCTION_TAIL),
    ).length;
    expect(chunks).toBeGreaterThan(1);
    // One message: posted with the first progress line, edited through the others into the summary.
    expect(await slackPosts(place.channel)).toHaveLength(1);
    const [message, ...others] = await botMessages(place.channel);
    expect(others).toEqual([]);
    const shown = message!.revisions.map((r) => r.text);
    expect(shown[0]).toBe(`Reading ${MESSAGES} messages… (part 1 of ${chunks})`);
    expect(shown).toContain(`Reading ${MESSAGES} messages… (part ${chunks} of ${chunks})`);
    expect(shown).toContain(`Summing up ${MESSAGES} messages…`);
    expect(shown.at(-1)).toMatch(/^Decisions:\n- ship on Friday https:\/\/progress-[a-z0-9]+\.slack\.com\/archives\//);
    expect(message!.text).toBe(shown.at(-1));
  });

  it("keeps every model call of the catch-up in the answer's trace, each with its prompt", async () => {
    const place = await talkedChannel();
    const event = slackMention({ ...place, user: "UCAROL", text: "what did I miss?" });
    expect((await callWorker(kit.env, await signedSlackRequest(event.body))).status).toBe(200);
    await kit.deliveriesSettled();

    const key = `slack|${place.team}|${place.channel}|`;
    const res = await callWorker(
      kit.env,
      new Request(`https://bot.example.com/admin/conversations/${encodeURIComponent(key)}`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    expect(res.status).toBe(200);
    const { answers } = (await res.json()) as { answers: AnswerTrace[] };
    const [trace] = answers;
    expect(trace!.kind).toBe("catch_up");
    const calls = trace!.calls!;
    const chunks = calls.length - 1;
    expect(calls.map((c) => c.label)).toEqual([
      ...Array.from({ length: chunks }, (_, i) =>
        expect.stringMatching(new RegExp(`^part ${i + 1} of ${chunks}: \\d+ messages$`)),
      ),
      `combining the notes of ${chunks} parts`,
    ]);
    for (const call of calls) {
      expect(call.tokens).toBeGreaterThan(0);
      expect(call.messages[0]!.role).toBe("system");
      expect(call.messages.at(-1)!.content.endsWith(CATCH_UP_INSTRUCTION_TAIL)).toBe(true);
    }
    expect(calls[0]!.messages.at(-1)!.content).toContain(`the release plan, point 0 ${place.tag}`);
    expect(calls.at(-1)!.messages.at(-1)!.content).toContain(`note-${place.id}`);
    expect(trace!.promptTokens).toBe(calls.reduce((sum, c) => sum + c.tokens, 0));
  });
});
