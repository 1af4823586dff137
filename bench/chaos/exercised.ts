/**
 * @module
 * What bench/chaos exercised, per feature per platform, counted from outside the Worker where a fake or the soak's
 * people can tell: thread reads from the Slack fake's Web API log, approvals from what the askers answered and the
 * webhook accepted and the presses of their buttons (./approvals.ts), rescues and unprompted answers from what people
 * saw (./invited.ts); and from the Worker's log lines where no fake can tell one read from another (a place read at a
 * conversation's start, catch-up steps, files read). Every platform is listed, so a feature at 0 shows.
 */
import { json } from "./checks.ts";
import type { Conversation } from "./plan.ts";

const PLATFORMS = ["slack", "discord", "twilio", "telegram", "google-chat", "teams"] as const;
type Platform = (typeof PLATFORMS)[number];
type PerPlatform = Record<Platform, number>;
const FEATURES = [
  "backfill",
  "thread_reads",
  "catch_up",
  "approvals",
  "clicks",
  "files",
  "rescue",
  "initiative",
] as const;
export type Exercised = Record<(typeof FEATURES)[number], PerPlatform>;

/** A log line of the run, parsed (lines that are not JSON objects are left out). */
export type LogEvent = Record<string, unknown> & { event: string };

export function parseEvents(lines: readonly string[]): LogEvent[] {
  const events: LogEvent[] = [];
  for (const line of lines) {
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed && typeof parsed === "object" && typeof (parsed as LogEvent).event === "string")
        events.push(parsed as LogEvent);
    } catch {
      // Not a log line of ours.
    }
  }
  return events;
}

export interface ExercisedInputs {
  /** The Slack fake's Web API log (`GET /__api`). */
  slackApi: readonly { method: string; channel?: string; include_all_metadata?: string }[];
  events: readonly LogEvent[];
  /**
   * Approval questions their asker answered, per platform, as the webhook accepted the answer (`answered`), and the
   * presses of their buttons sent (`clicks`).
   */
  approvals: { answered: Partial<PerPlatform>; clicks: Partial<PerPlatform> };
  /**
   * What people saw in the Slack channels that invited the bot (./invited.ts: `rescues`, `unprompted_answers`):
   * rescues in the thread under a question, and answers nobody asked for.
   */
  invited: { rescues: number; unprompted_answers: number };
  /** The rescue channels, whose history reads are the rescue's, not a conversation start's. */
  rescueChannels: ReadonlySet<string>;
}

const BACKFILL_EVENTS = new Set(["history_read", "history_unavailable", "history_refused"]);
const zeros = (): PerPlatform => ({ slack: 0, discord: 0, twilio: 0, telegram: 0, "google-chat": 0, teams: 0 });

function countExercised(i: ExercisedInputs): Exercised {
  const f = Object.fromEntries(FEATURES.map((name) => [name, zeros()])) as Exercised;
  // A thread's parent or the thread as it stands; not a rescue's read, nor a search for a post whose answer was
  // lost (lib/platforms/slack/find-part.ts asks for metadata).
  f.thread_reads.slack = i.slackApi.filter(
    (c) =>
      c.method === "conversations.replies" &&
      c.include_all_metadata === undefined &&
      !i.rescueChannels.has(c.channel ?? ""),
  ).length;
  const platformOf = (e: LogEvent) =>
    (PLATFORMS as readonly unknown[]).includes(e.platform) ? (e.platform as Platform) : undefined;
  for (const e of i.events) {
    const p = platformOf(e);
    if (!p) continue;
    // A read of the place at a conversation's start, whether it came back or failed (lib/jobs/backfill.ts): the
    // fakes cannot tell it from the other reads, and Telegram's is of what Parley kept.
    if (BACKFILL_EVENTS.has(e.event)) f.backfill[p]++;
    if (e.event === "catch_up_step") f.catch_up[p]++;
    if (e.event === "files_read" || e.event === "parent_files_read") f.files[p]++;
  }
  for (const [p, n] of Object.entries(i.approvals.answered)) f.approvals[p as Platform] += n;
  for (const [p, n] of Object.entries(i.approvals.clicks)) f.clicks[p as Platform] += n;
  f.rescue.slack = i.invited.rescues;
  f.initiative.slack = i.invited.unprompted_answers;
  return f;
}

/** Reads the fakes' records once the run settled, and counts. */
export async function readExercised(
  fakes: { slackControl: string },
  events: readonly LogEvent[],
  approvals: ExercisedInputs["approvals"],
  invited: ExercisedInputs["invited"],
  invitedConversations: readonly Conversation[],
): Promise<Exercised> {
  return countExercised({
    slackApi: await json<ExercisedInputs["slackApi"]>(`${fakes.slackControl}/__api`),
    events,
    approvals,
    invited,
    rescueChannels: new Set(invitedConversations.filter((c) => c.kind === "slack_rescue").map((c) => c.place.channel)),
  });
}
