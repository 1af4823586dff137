/**
 * @module
 * bench/chaos's approvals (docs/tools.md, "Actions that need approval"): once the questions that ask to run the
 * confirm-only create_ticket are up (./questions.ts finds them), the person who asked answers each as the seed draws
 * it: yes (half of them), no (a quarter), or never (the question expires). Where the question shows its buttons the
 * answer is a press (always on Telegram, Google Chat and in a Discord DM, where no reaction is read; half the time on
 * Slack and in Discord guilds, a reaction the other half), by text a YES or NO; all under the run's faults. A third of
 * the yeses come twice: a double click (a second press made while the buttons show) or the reaction again and a second
 * way (✅ then ✔️, YES twice); another third of the pressed ones have the same press arrive again (Telegram redelivers
 * an update; Discord's the same interaction twice, as test/worker/tool-approval-buttons-discord.test.ts plays it; Slack
 * never does). Before any of it, on a quarter of the questions in a place with others in it, a stranger presses Approve
 * (changes nothing); and on a quarter the asker's Approve press is delivered only after the question expired
 * (`sendLatePresses`: changes nothing). A press counts as accepted when its answer was a 2xx (Parley answers 200), else
 * it is not (Telegram delivers a failed update again, as ./send.ts). Afterwards, from the tool server's count of
 * create_ticket by idempotency key and the title each carried (which holds the conversation's tag): every call is of a
 * conversation whose asker approved in time (`unapproved_calls` otherwise), none was done twice, under two keys
 * (`confirmed_twice`), and every approval the platform saw accepted ran (`approved_unrun` otherwise); a key sent again
 * (`confirmed_repeats`) is the server's to drop.
 */
import type { Random } from "../../dev/faults/seeded-random.ts";
import type { ToolServerCalls } from "../../dev/tools/server.ts";
import type { Conversation, InboundMessage } from "./plan.ts";
import { findQuestions, type Outgoing, type Question } from "./questions.ts";
import { deliverAsPlatform, type Sender, type SendStats } from "./send.ts";

type ApprovalPlatform = Question["platform"];
const perPlatform = () => ({ slack: 0, discord: 0, twilio: 0, telegram: 0, "google-chat": 0 });

export interface ApprovalsSent {
  /** Questions found, asking to run create_ticket. */
  questions: number;
  /** Tags of the conversations whose asker approved in time (whether or not it was accepted). */
  approved: Set<string>;
  /** Of those, the ones whose approval the platform saw accepted: each must have run. */
  accepted: Set<string>;
  denied: number;
  /** Questions whose asker's answer (reaction, text or press) was accepted, per platform. */
  answered: Record<ApprovalPlatform, number>;
  /** Presses sent (a stranger's, double clicks, redeliveries and late ones included), per platform. */
  clicks: Record<ApprovalPlatform, number>;
  /** Questions approved by an accepted press. */
  approvedByClick: number;
  /** The presses that come after the questions expired. */
  late: InboundMessage[];
}

const STRANGER_SHARE = 0.25;
const LATE_SHARE = 0.25;

/** One question answered as the seed draws it; every draw is made, whatever the question offers, for the replay. */
async function answerAsDrawn(s: Sender, stats: SendStats, sent: ApprovalsSent, q: Question, random: Random) {
  const [strangerDraw, draw, wayDraw, repeatDraw, lateDraw] = [random(), random(), random(), random(), random()];
  sent.questions++;
  const out = async (o: Outgoing) => {
    if (!("dispatch" in o)) return deliverAsPlatform(s, stats, o);
    const at = Date.now();
    const delivered = await o.dispatch();
    // No webhook delivery, but traced as one (200: a Gateway session took it), so that a ✅ the Worker never decided
    // shows in the trace next to the presses (seed 2's stranger press was read as the asker's without it).
    stats.sent.push({ at, word: o.word, status: delivered ? 200 : 0 });
    return delivered;
  };
  const click = async (m: InboundMessage | null) => {
    if (!m) return false;
    sent.clicks[q.platform]++;
    return deliverAsPlatform(s, stats, m);
  };
  const press = q.press;
  const byClick = press !== undefined && (!q.answer || wayDraw < 0.5);
  if (press && q.strangers && strangerDraw < STRANGER_SHARE) await click(await press("approve", "stranger"));
  // Built now, while the buttons show (a client that had not seen the outcome yet); delivered after the expiry.
  const late = press && lateDraw < LATE_SHARE ? await press("approve", "asker") : null;
  if (late) sent.late.push(late);
  let accepted = false;
  if (draw < 0.5) {
    sent.approved.add(q.tag);
    if (byClick) {
      const first = await press("approve", "asker");
      // A double click: both clicks made while the buttons show (Telegram, Google Chat take them away on the decision).
      const second = repeatDraw < 1 / 3 ? await press("approve", "asker") : null;
      accepted = await click(first);
      if (second) accepted = (await click(second)) || accepted;
      else if (repeatDraw < 2 / 3 && q.redelivered) accepted = (await click(first)) || accepted;
      if (accepted) sent.approvedByClick++;
    } else if (q.answer) {
      accepted = await out(q.answer("approve", 0));
      if (repeatDraw < 1 / 3) {
        accepted = (await out(q.answer("approve", 0))) || accepted;
        accepted = (await out(q.answer("approve", 1))) || accepted;
      }
    }
    if (accepted) sent.accepted.add(q.tag);
  } else if (draw < 0.75) {
    sent.denied++;
    if (byClick) accepted = await click(await press("cancel", "asker"));
    else if (q.answer) accepted = await out(q.answer("deny", 0));
  }
  if (accepted) sent.answered[q.platform]++;
}

export async function sendApprovals(
  s: Sender,
  stats: SendStats,
  conversations: readonly Conversation[],
  random: Random,
): Promise<ApprovalsSent> {
  const sent: ApprovalsSent = {
    questions: 0,
    approved: new Set(),
    accepted: new Set(),
    denied: 0,
    answered: perPlatform(),
    clicks: perPlatform(),
    approvedByClick: 0,
    late: [],
  };
  for (const q of await findQuestions(s, conversations)) await answerAsDrawn(s, stats, sent, q, random);
  return sent;
}

/** The presses that come after their question expired: each answered, none changes anything. */
export async function sendLatePresses(s: Sender, stats: SendStats, sent: ApprovalsSent): Promise<void> {
  for (const m of sent.late) {
    const platform: ApprovalPlatform = m.slackPress
      ? "slack"
      : m.discordBody
        ? "discord"
        : m.written
          ? "google-chat"
          : "telegram";
    sent.clicks[platform]++;
    await deliverAsPlatform(s, stats, m);
  }
}

export interface ConfirmFigures {
  /** create_ticket idempotency keys the tool server received. */
  confirmed_calls: number;
  /** Approvals whose action reached the tool server under more than one key (done twice): must be 0. */
  confirmed_twice: number;
  /** Calls that repeated a key already received (a continuation that died during its call): dropped by the server. */
  confirmed_repeats: number;
  /** create_ticket calls of conversations whose asker never approved in time: must be 0. */
  unapproved_calls: number;
  /** Approvals the platform saw accepted whose create_ticket never reached the tool server: must be 0. */
  approved_unrun: number;
}

export function checkConfirmCalls(
  calls: ToolServerCalls,
  approvals: Pick<ApprovalsSent, "approved" | "accepted">,
  problems: string[],
): ConfirmFigures {
  const { approved } = approvals;
  const keys = Object.entries(calls.createTitles);
  const keysOf = (tag: string) => keys.filter(([, title]) => title.includes(tag));
  const twice = [...approved].filter((tag) => keysOf(tag).length > 1);
  const unapproved = keys.filter(([, title]) => ![...approved].some((tag) => title.includes(tag)));
  for (const tag of twice)
    problems.push(
      `confirmed_twice: conversation ${tag}'s create_ticket reached the tool server under ${keysOf(tag).length} keys`,
    );
  for (const [, title] of unapproved)
    problems.push(`unapproved: create_ticket "${title.slice(0, 60)}" reached the tool server unapproved`);
  const unrun = [...approvals.accepted].filter((tag) => keysOf(tag).length === 0);
  for (const tag of unrun) problems.push(`approved_unrun: conversation ${tag}'s accepted approval never ran`);
  const repeats = keys.reduce((sum, [key]) => sum + Math.max(0, (calls.byKey[key] ?? 0) - 1), 0);
  return {
    confirmed_calls: keys.length,
    confirmed_twice: twice.length,
    confirmed_repeats: repeats,
    unapproved_calls: unapproved.length,
    approved_unrun: unrun.length,
  };
}
