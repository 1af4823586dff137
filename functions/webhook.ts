/**
 * @module
 * The one webhook flow every platform's route runs: the platform on (`platformOn`), its signature verified before
 * anything of the body is read (`signedBy`, ./middleware/verified-webhook.ts), then the platform's protocol checks
 * answered, the body parsed (400 only for a body that is not the platform's format at all; a signed delivery of
 * something Parley does not use is acknowledged and ignored), a press of one of the bot's controls answered (an
 * approval's, feedback on an answer: lib/feedback/press.ts, a Stop on one as it is written: lib/stop/press.ts), the
 * message ingested (lib/ingest.ts; a YES or NO that answers a pending approval goes to it first), an uninstalled
 * tenant's cleanup started or a left place's digest deleted (lib/digests/command.ts) and its channel's cleanup
 * started, and the platform answered its own way (`platformWebhook`). What is truly a platform's (its answers, an
 * unsigned check before verifying) the route file passes in.
 */
import type { Context, Handler, MiddlewareHandler } from "hono";
import { answerApproval, answerApprovalReply, closePendingQuestion, pressControl } from "../lib/approvals/decide.ts";
import { placeLeft } from "../lib/digests/command.ts";
import { using } from "../lib/errors.ts";
import { pressFeedback } from "../lib/feedback/press.ts";
import { pressStop } from "../lib/stop/press.ts";
import { type IngestResult, ingest } from "../lib/ingest.ts";
import { publishPlaceCleanup, publishTenantCleanup } from "../lib/jobs/tenant-cleanup.ts";
import { showWorkingEarly } from "../lib/jobs/working-sign.ts";
import type { AnyPlatformAdapter, Parsed, PlatformAdapter, WebhookRequest } from "../lib/platforms/adapter.ts";
import { adapterContext, replyContext } from "../lib/platforms/context.ts";
import { adapters } from "../lib/platforms/index.ts";
import { platformReplier } from "../lib/platforms/replier.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { verifiedWebhook } from "./middleware/verified-webhook.ts";

export type MessageDelivery<Extra> = Extract<Parsed<Extra>, { kind: "message" }>;

export interface WebhookAnswers<Extra> {
  /**
   * The platform's answer once the message is recorded (and decided on); `answeredApproval`: it was a YES or NO that
   * did.
   */
  message(
    c: Context<AppEnv>,
    delivery: MessageDelivery<Extra>,
    ingested: IngestResult,
    answeredApproval: boolean,
  ): Response;
  /** The platform's answer to a delivery with no message to record (ignored, or the app's removal). */
  nothing(c: Context<AppEnv>): Response;
}

/** A platform that is off has no routes (404); one whose settings are wrong says which (503). */
export function platformOn(adapter: AnyPlatformAdapter): MiddlewareHandler<AppEnv> {
  const platform = adapter.platform;
  return async (c, next) => {
    const state = runtimeFor(c.env).platforms.state(platform);
    if (state.status === "misconfigured")
      return c.json({ error: `${platform} is misconfigured`, settings: state.problems.map((p) => p.name) }, 503);
    if (state.status === "off") return c.json({ error: `${platform} is not configured` }, 404);
    await next();
  };
}

/**
 * The platform's signature check over the body as read; `unsigned`: a request it sends unsigned (Slack's ssl_check).
 */
export function signedBy(
  adapter: AnyPlatformAdapter,
  unsigned?: (request: WebhookRequest) => Response | null,
): MiddlewareHandler<AppEnv> {
  return verifiedWebhook({
    platform: adapter.platform,
    check: (c) => {
      const rt = runtimeFor(c.env);
      return { verify: (request) => adapter.verify(adapterContext(rt, adapter), request), log: rt.log };
    },
    ...(unsigned ? { unsigned } : {}),
  });
}

/** The flow after `platformOn` and `signedBy`: the delivery they verified, parsed, ingested and answered. */
export function platformWebhook<Extra, Config>(
  // biome-ignore lint/suspicious/noExplicitAny: any reply target; only the adapter uses it
  adapter: PlatformAdapter<any, Extra, Config>,
  answers: WebhookAnswers<Extra>,
): Handler<AppEnv> {
  const platform = adapter.platform;
  return async (c) => {
    const rt = runtimeFor(c.env);
    const ctx = adapterContext(rt, adapter);
    const parsed = adapter.parse(ctx, c.var.webhook);
    switch (parsed.kind) {
      case "invalid":
        rt.log.warn(`${platform}_invalid`, { issues: parsed.issues });
        return c.json({ error: `unexpected ${platform} payload`, issues: parsed.issues }, 400);
      case "protocol":
        return parsed.response;
      case "ignored":
        rt.log.info(`${platform}_ignored`, { reason: parsed.reason });
        return answers.nothing(c);
      case "approval":
        await using("redis", () => answerApproval(rt, parsed.answer));
        return answers.nothing(c);
      case "control": {
        // A press of the question's controls: decided as a ✅ or ❌ is, answered to the presser alone.
        const controls = adapter.approvals?.controls;
        if (!controls) return answers.nothing(c);
        const { press } = parsed;
        // A Stop on an answer as it is written (lib/stop/press.ts), a 👍 or 👎 under one (lib/feedback/press.ts),
        // else the approval's.
        const note = await using("redis", async () => {
          const stopped = await pressStop(rt, adapter, press);
          if (stopped) return stopped.note;
          return (await pressFeedback(rt, adapter, press)) ?? pressControl(rt, press, controls.mention);
        });
        return controls.answer(replyContext(rt, adapter, press.place.tenant), press, note);
      }
      case "left":
        // The digest first: the channel's cleanup deletes the settings that name its schedule.
        await using("qstash", () => placeLeft(rt, parsed.place));
        await using("qstash", () => publishPlaceCleanup(rt, parsed.place));
        return answers.nothing(c);
      case "removed":
        for (const tenant of parsed.tenants) {
          await using("qstash", () =>
            publishTenantCleanup(rt, { platform, tenant, accessRevoked: parsed.accessRevoked ?? false }),
          );
        }
        return answers.nothing(c);
    }
    const installable = adapter.installs?.enabled(ctx.config) && parsed.installation !== undefined;
    // A YES or NO that answers a pending approval is the approval's: recorded as every message is, never answered.
    const { approvalReply } = parsed;
    const answeredApproval =
      approvalReply !== undefined &&
      (await using("redis", () => answerApprovalReply(rt, parsed.message, approvalReply)));
    const message = answeredApproval ? { ...parsed.message, noReply: true } : parsed.message;
    const ingested = await ingest(rt, message, botIdentity(rt, parsed.botUserId), {
      ...adapter.ingestOptions(ctx.config),
      ...parsed.options,
      // Checked inside the ingest script: no extra round trip.
      ...(installable ? { installedTenant: parsed.installation! } : {}),
    });
    // Anything else the person says (a new message, not a redelivery) closes the question it came after.
    if (!answeredApproval && ingested.status !== "duplicate" && adapter.approvals?.way === "reply")
      await using("redis", () => closePendingQuestion(rt, parsed.message.key, "person"));
    // After the acknowledgement, not before it: the answer's job starts late under load (lib/jobs/working-sign.ts).
    if (ingested.replyJob)
      c.executionCtx.waitUntil(showWorkingEarly(rt, ingested.replyJob, platformReplier(rt, adapters)));
    return answers.message(c, parsed, ingested, answeredApproval);
  };
}
