/**
 * @module
 * The one webhook flow every platform's route runs: read the body once, verify its signature (401 before anything of
 * it is read), answer the platform's protocol checks, parse it (400 only for a body that is not the platform's
 * format at all; a signed delivery of something Parley does not use is acknowledged and ignored), then ingest the
 * message (lib/ingest.ts; a YES or NO that answers a pending approval goes to it first) or start an uninstalled
 * tenant's cleanup, and answer the platform its own way. What is truly a platform's (its answers, an unsigned check
 * before verifying) the route file passes in.
 */
import type { Context, Handler } from "hono";
import { using } from "../lib/errors.ts";
import { type IngestResult, ingest } from "../lib/ingest.ts";
import { answerApproval, answerApprovalReply } from "../lib/approvals/decide.ts";
import { publishTenantCleanup } from "../lib/jobs/tenant-cleanup.ts";
import { showWorkingEarly } from "../lib/jobs/working-sign.ts";
import type { Parsed, PlatformAdapter, WebhookRequest } from "../lib/platforms/adapter.ts";
import { adapterContext } from "../lib/platforms/context.ts";
import { adapters } from "../lib/platforms/index.ts";
import { platformReplier } from "../lib/platforms/replier.ts";
import { botIdentity, runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { jobSchema } from "./jobs.ts";

export type MessageDelivery<Extra> = Extract<Parsed<Extra>, { kind: "message" }>;

export interface WebhookAnswers<Extra> {
  /** An unsigned request the platform sends, answered before the signature check (Slack's ssl_check). */
  unsigned?(request: WebhookRequest): Response | null;
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

export function platformWebhook<Extra, Config>(
  // biome-ignore lint/suspicious/noExplicitAny: any reply target; only the adapter uses it
  adapter: PlatformAdapter<any, Extra, Config>,
  answers: WebhookAnswers<Extra>,
): Handler<AppEnv> {
  const platform = adapter.platform;
  return async (c) => {
    const rt = runtimeFor(c.env);
    const state = rt.platforms.state(platform);
    if (state.status === "misconfigured")
      return c.json({ error: `${platform} is misconfigured`, settings: state.problems.map((p) => p.name) }, 503);
    if (state.status === "off") return c.json({ error: `${platform} is not configured` }, 404);
    const request = await webhookRequest(c);
    const unsigned = answers.unsigned?.(request);
    if (unsigned) return unsigned;
    const ctx = adapterContext(rt, adapter);
    const verified = await adapter.verify(ctx, request);
    if (!verified.ok) {
      rt.log.warn(`${platform}_rejected`, { reason: verified.reason });
      return c.json({ error: "invalid signature" }, 401);
    }
    const parsed = adapter.parse(ctx, request);
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
        await using("redis", () => answerApproval(rt, parsed.answer, jobSchema));
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
      (await using("redis", () => answerApprovalReply(rt, parsed.message, approvalReply, jobSchema)));
    const message = answeredApproval ? { ...parsed.message, noReply: true } : parsed.message;
    const ingested = await ingest(rt, message, botIdentity(rt, parsed.botUserId), {
      ...adapter.ingestOptions(ctx.config),
      ...parsed.options,
      // Checked inside the ingest script: no extra round trip.
      ...(installable ? { installedTenant: parsed.installation! } : {}),
    });
    // After the acknowledgement, not before it: the answer's job starts late under load (lib/jobs/working-sign.ts).
    if (ingested.replyJob)
      c.executionCtx.waitUntil(showWorkingEarly(rt, ingested.replyJob, platformReplier(rt, adapters)));
    return answers.message(c, parsed, ingested, answeredApproval);
  };
}

async function webhookRequest(c: Context<AppEnv>): Promise<WebhookRequest> {
  // Decoded by hand: workerd warns when .text() reads a body whose type is not text/* (Twilio posts a form).
  const rawBody = new TextDecoder().decode(await c.req.arrayBuffer());
  return { headers: c.req.raw.headers, rawBody, url: c.req.url };
}
