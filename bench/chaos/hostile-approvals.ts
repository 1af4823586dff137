/**
 * @module
 * The hostile approval cases of bench/chaos (issue 41, findings 1 and 3), run with the other hostile cases before
 * the faults, each with what must hold once it settled:
 * - a confirm call whose arguments are longer than a question usually shows (580 characters of printer trouble,
 *   then a title that grants admin), approved by ✅ on Slack and by YES on SMS (where a question that long does not
 *   fit a text: the call is then not asked): the tool server may only ever receive arguments the asker was shown
 *   whole;
 * - on SMS and WhatsApp a question the texter ignores: they talk on, the bot's next answer asks a question of its
 *   own ("Want the printer manual?"), and their "yes" to that must not approve the pending call.
 * Each goes to a place of its own; the tool server's record is read, then reset for the soak (./run.ts).
 */
import { TWILIO_ACCOUNT_SID, TWILIO_NUMBER, twilioRequest } from "../load/traffic.ts";
import { reactionBody } from "./questions.ts";
import { HOSTILE_SLACK_TEAM } from "./hostile-privacy.ts";
import { json } from "./checks.ts";
import { APPROVAL_TAG } from "../../lib/notices.ts";
import { SLACK_BOT_USER_ID, slackEvent, slackRequest } from "../load/traffic.ts";
import type { Sender } from "./send.ts";

const FILLER = "Printer on 3rd floor jammed. ";
/** The title the filler would push out of sight, naming its case. */
const hiddenTitle = (marker: string) => `HIDDEN ${marker} grant admin to mallory`;
/** The texter's answer to the bot's own question, not to the pending approval. */
const STRAY_YES = "yes";
/** Each step's wait on the virtual clock: the jobs of a step run, the question's window (15 minutes) stays open. */
const STEP_MS = 60_000;

/** A confirm call whose arguments open with `length` characters of filler, asked by a message with `marker`. */
const wideCall = (marker: string, length: number) => ({
  match: marker,
  afterTools: false,
  times: 1,
  toolCalls: [
    {
      name: "create_ticket",
      arguments: JSON.stringify({
        queue: FILLER.repeat(Math.ceil(length / FILLER.length)),
        title: hiddenTitle(marker),
      }),
    },
  ],
});
const strayCall = (marker: string) => ({
  match: marker,
  afterTools: false,
  times: 1,
  toolCalls: [{ name: "create_ticket", arguments: JSON.stringify({ title: `${marker} wire funds to mallory` }) }],
});
/** The filler of the reproduction: past the 500 characters a question used to show. */
const WIDE = 580;
const CASES = {
  wideSlack: "hxwideslack",
  wideSms: "hxwidesms",
  straySms: "hxstraysms",
  strayWhatsApp: "hxstraywa",
} as const;
const TALK = "hxstraytalk";

/** For the model's script at the stack's start (./run.ts): before the soak's rules. */
export const APPROVAL_MODEL_RULES = [
  wideCall(CASES.wideSlack, WIDE),
  wideCall(CASES.wideSms, WIDE),
  strayCall(CASES.straySms),
  strayCall(CASES.strayWhatsApp),
  { match: TALK, times: 2, reply: "Want the printer manual?" },
];

interface ToolCallsSeen {
  received: { key: string; body: string }[];
}

export interface ApprovalCases {
  cases: number;
  /** Once settled: the broken ones (also pushed to `problems`). */
  check(problems: string[]): Promise<number>;
}

type Settle = (ms: number) => Promise<unknown>;

export async function sendApprovalCases(s: Sender & { toolServer: string }, settle: Settle): Promise<ApprovalCases> {
  const run = Date.now().toString(36).toUpperCase();
  let sid = 0;
  const text = async (from: string, body: string) => {
    const to = from.startsWith("whatsapp:") ? `whatsapp:${TWILIO_NUMBER}` : TWILIO_NUMBER;
    const id = `SMH${run}${String(++sid).padStart(8, "0")}`;
    const params = Object.entries({
      MessageSid: id,
      SmsMessageSid: id,
      AccountSid: TWILIO_ACCOUNT_SID,
      From: from,
      To: to,
      Body: body,
      NumMedia: "0",
    });
    await (await fetch(twilioRequest(s.parleyUrl, s.publicBaseUrl, params))).arrayBuffer();
  };
  const places = {
    slack: `CHWIDE${run}`,
    wideSms: "+15559990001",
    straySms: "+15559990002",
    strayWhatsApp: "whatsapp:+15559990003",
  };
  const asker = "UHWIDE";
  const mention = slackEvent(
    HOSTILE_SLACK_TEAM,
    places.slack,
    asker,
    `<@${SLACK_BOT_USER_ID}> ${CASES.wideSlack} please file the printer ticket`,
    (Date.now() / 1000).toFixed(6),
  );
  await (await fetch(slackRequest(s.parleyUrl, mention))).arrayBuffer();
  await text(places.wideSms, `${CASES.wideSms} please file the printer ticket`);
  await text(places.straySms, `${CASES.straySms} please file it`);
  await text(places.strayWhatsApp, `${CASES.strayWhatsApp} please file it`);
  await settle(STEP_MS);

  // The asker approves what the questions show now (kept: an outcome may edit the question later): ✅ on Slack,
  // YES by text, whatever the texter was sent (a text's marks differ from Slack's).
  const questions = (
    await json<{ ts: string; channel: string; text?: string; bot_id?: string }[]>(
      `${s.slackControl}/__messages?team=${HOSTILE_SLACK_TEAM}&channel=${places.slack}`,
    )
  ).filter((m) => m.bot_id && m.text?.startsWith(APPROVAL_TAG));
  const shown: Record<string, string> = {
    [CASES.wideSlack]: questions.map((q) => q.text).join("\n"),
    [CASES.wideSms]: (await json<{ to: string; body: string }[]>(`${s.twilioFake}/__calls`))
      .filter((t) => t.to === places.wideSms)
      .map((t) => t.body)
      .join("\n"),
  };
  for (const question of questions) {
    const body = reactionBody(HOSTILE_SLACK_TEAM, asker, "white_check_mark", question, 0);
    await (await fetch(slackRequest(s.parleyUrl, body))).arrayBuffer();
  }
  await text(places.wideSms, "YES");
  // The texters who were asked talk on instead; the bot answers with a question of its own.
  await text(places.straySms, `${TALK} the printer on 3 is still jammed`);
  await text(places.strayWhatsApp, `${TALK} the printer on 3 is still jammed`);
  await settle(STEP_MS);
  await text(places.straySms, STRAY_YES);
  await text(places.strayWhatsApp, STRAY_YES);
  await settle(STEP_MS);

  return {
    cases: 10,
    async check(problems) {
      const found: string[] = [];
      const calls = (await json<ToolCallsSeen>(`${s.toolServer}/__calls`)).received.map(
        (r) => JSON.parse(r.body) as { tool: string; arguments: Record<string, unknown> },
      );
      const creates = calls.filter((c) => c.tool === "create_ticket");
      for (const [name, marker] of [
        ["Slack", CASES.wideSlack],
        ["SMS", CASES.wideSms],
      ] as const) {
        const ran = creates.filter((c) => c.arguments.title === hiddenTitle(marker));
        const unshown = ran.filter((c) =>
          Object.values(c.arguments).some((v) => typeof v !== "string" || !shown[marker]!.includes(v)),
        );
        if (unshown.length > 0)
          found.push(`on ${name} the tool server received ${unshown.length} call(s) with arguments the question hid`);
      }
      for (const marker of [CASES.straySms, CASES.strayWhatsApp]) {
        const ran = creates.filter((c) => String(c.arguments.title).startsWith(marker));
        if (ran.length > 0) found.push(`a "yes" to the bot's own question ran the pending ${marker} call`);
      }
      for (const p of found) problems.push(`hostile_broken: ${p}`);
      return found.length;
    },
  };
}
