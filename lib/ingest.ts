/**
 * @module
 * The webhook's flow after verify and parse: ONE Redis round trip (a Lua script that drops a duplicate delivery,
 * records the message in its place's conversation or starts one, and returns what the decision needs), the
 * decision, and at most one QStash job for the answer (lib/jobs/ runs it).
 */
import { isResetRequest } from "./conversation/reset.ts";
import type { RecordStatus } from "./conversation/store.ts";
import { decideResponse, explicitTrigger, takeInitiative, type Decision, type DecisionReason } from "./decide/index.ts";
import { using } from "./errors.ts";
import { capInboundMessage } from "./limits/message-length.ts";
import { loggedId, loggedPlace } from "./log-ids.ts";
import type { BotIdentity, InboundMessage } from "./message.ts";
import { rescueJobFor } from "./rescue/schedule.ts";
import type { IngestOptions } from "./platforms/adapter.ts";
import type { Job, JobKind } from "./queue/job.ts";
import type { Runtime } from "./runtime.ts";

/** Explicit addresses that must get an answer even when the model would rather stay quiet. */
const REQUIRED_REASONS: ReadonlySet<DecisionReason> = new Set(["direct_mention", "dm", "command"]);
/** The person asked not to be messaged (STOP), now or earlier: recorded, never answered. */
const OPTED_OUT: Decision = { respond: "no", reason: "opted_out" };
/** Decisions that a platform's "answer every message" does not overturn. */
const NEVER_FORCED: ReadonlySet<DecisionReason> = new Set(["self", "other_bot", "opted_out"]);

export interface IngestResult {
  status: RecordStatus;
  decision?: Decision;
  published: boolean;
  /** The reply job published for the message whose working sign the webhook is to put up. */
  replyJob?: Job;
}

export async function ingest(
  rt: Runtime,
  inbound: InboundMessage,
  bot: BotIdentity,
  opts: IngestOptions = {},
): Promise<IngestResult> {
  const s = rt.settings;
  const msg = capInboundMessage(inbound, s.MAX_MESSAGE_CHARS);
  const explicit = explicitTrigger(msg, bot);
  const reset = !msg.noReply && isResetRequest(msg.text, bot, s.RESET_WORDS);
  const keeps = Boolean(opts.keepHistory) && s.BACKFILL_MESSAGES > 0 && s.BACKFILL_MINUTES > 0;
  // One round trip: whether the author opted out is read inside the ingest script; STOP or START is written beside it.
  const [{ status, state, optedOut, placeSettings }] = await using("redis", () =>
    Promise.all([
      rt.store.record(msg, {
        startIfIdle: explicit !== null || reset || Boolean(opts.alwaysAnswer),
        reset,
        ...(opts.optOuts ? { optOuts: true } : {}),
        ...(opts.installedTenant ? { installedTenant: opts.installedTenant } : {}),
        ...(keeps ? { kept: { messages: s.BACKFILL_MESSAGES, ttlSeconds: s.BACKFILL_MINUTES * 60 } } : {}),
        ...(opts.placeSettings ? { placeSettings: true } : {}),
      }),
      msg.consent && rt.optOuts.record(msg.key, msg.author.id, msg.consent),
    ]),
  );
  const where = { ...(await loggedPlace(rt, msg.key, opts.logIds)), message: msg.id };
  // No installation for this tenant (never installed, or uninstalled): nothing was recorded, nothing is answered.
  if (status === "not_installed") {
    rt.log.info("tenant_not_installed", { platform: msg.key.platform, tenant: msg.key.tenant });
    return { status, published: false };
  }
  // A job started on it already. (An `unpublished` delivery goes on: the earlier one may have failed to publish.)
  if (status === "duplicate") {
    rt.log.info("duplicate_dropped", where);
    return { status, published: false };
  }
  // The platform answers START and HELP itself: nothing to decide. A 👎 on an
  // answer is decided (never answered) so that the decision log says why the bot goes quiet.
  if (msg.noReply && msg.consent !== "opt_out" && !msg.feedback) return { status, published: false };
  let decision: Decision =
    msg.consent === "opt_out" || optedOut
      ? OPTED_OUT
      : decideResponse(
          state,
          msg,
          bot,
          { followupWindowSeconds: s.FOLLOWUP_WINDOW_SECONDS, useJudge: s.USE_LLM_JUDGE },
          explicit,
        );
  if (opts.alwaysAnswer && decision.respond !== "yes" && !NEVER_FORCED.has(decision.reason)) {
    decision = { respond: "yes", reason: explicit ?? "dm" };
  }
  decision = takeInitiative(decision, state, placeSettings, s.FOLLOWUP_WINDOW_SECONDS * 1000) ?? decision;
  rt.log.info("decision", {
    ...where,
    author: await loggedId(rt, opts.logIds, msg.author.id),
    conversation: state.id || null,
    status,
    respond: decision.respond,
    reason: decision.reason,
    score: decision.score,
  });
  const rescue = rescueJobFor(
    msg,
    state,
    bot,
    decision,
    placeSettings,
    { minutes: s.RESCUE_AFTER_MINUTES },
    {
      ...(msg.visibility ? { visibility: msg.visibility } : {}),
      ...(opts.logIds ? { logIds: opts.logIds } : {}),
      ...(placeSettings.feedback || opts.feedback ? { feedback: true as const } : {}),
    },
  );
  if (rescue) {
    const queued = await using("qstash", () => rt.queue.publish(rescue.job, { delaySeconds: rescue.delaySeconds }));
    rt.log.info("rescue_scheduled", {
      ...where,
      job: queued.messageId,
      seconds: rescue.delaySeconds,
      deduplicated: queued.deduplicated,
    });
  }
  if (decision.respond === "no") return { status, decision, published: false };

  const kind: JobKind = decision.respond === "judge" ? "judge" : "reply";
  const job: Job = {
    kind,
    key: msg.key,
    conversationId: state.id,
    trigger: { id: msg.id, ts: msg.ts, authorId: msg.author.id, authorName: msg.author.name },
    required: REQUIRED_REASONS.has(decision.reason) || Boolean(opts.alwaysAnswer),
    reason: decision.reason,
    bot,
    replyTarget: msg.replyTarget,
    ...(opts.systemNotes?.length ? { systemNotes: opts.systemNotes } : {}),
    ...(opts.delaySeconds ? { waitsForBurst: true } : {}),
    ...(msg.visibility ? { visibility: msg.visibility } : {}),
    ...(opts.logIds ? { logIds: opts.logIds } : {}),
    ...(opts.optOuts ? { optOuts: true as const } : {}),
    ...(kind === "reply" && opts.signByWebhook && s.SHOW_WORKING ? { signByWebhook: true as const } : {}),
    ...(keeps ? { keptHistory: true as const } : {}),
    ...(msg.historyHidden ? { historyHidden: msg.historyHidden } : {}),
    ...(placeSettings.feedback || opts.feedback ? { feedback: true as const } : {}),
  };
  const published = await using("qstash", () => rt.queue.publish(job, { delaySeconds: opts.delaySeconds }));
  rt.log.info("job_published", { ...where, kind, job: published.messageId, deduplicated: published.deduplicated });
  return { status, decision, published: true, ...(job.signByWebhook ? { replyJob: job } : {}) };
}
