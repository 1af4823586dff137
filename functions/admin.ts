/**
 * @module
 * GET /admin/conversations/:key: what the bot holds about one conversation (state, time left before it expires,
 * summary), the place's own settings (`/parley`, shown whether or not a conversation is active), its counts of
 * feedback on answers (👍, 👎, and 👎 that said "not you": numbers only, lib/feedback/store.ts) and how its last
 * digest ended (lib/digests/), and the traces of its recent answers (reason and exact prompt with its token
 * count), behind the admin token
 * (./middleware/admin-token.ts). `:key` is the URL-encoded `platform|tenant|channel|thread`.
 * GET /admin/tenants/:platform/:tenant: a tenant's installation (no token) and its model tokens today.
 */
import { Hono } from "hono";
import * as z from "../lib/zod.ts";
import type { ConversationKey } from "../lib/message.ts";
import { adapters } from "../lib/platforms/index.ts";
import { runtimeFor } from "../lib/runtime.ts";
import type { AppEnv } from "./app-env.ts";
import { adminToken } from "./middleware/admin-token.ts";

const KEY_SEPARATOR = "|";

/** The SMS channel is itself `to|from`: platform and tenant come first, the thread last, the channel is the rest. */
const keyParts = z.pipe(
  z.pipe(
    z.string(),
    z.transform((raw) => raw.split(KEY_SEPARATOR)),
  ),
  z.array(z.string()).check(z.minLength(4)),
);
const keyFields = z.pipe(
  z.pipe(
    keyParts,
    z.transform((parts) => ({
      platform: parts[0],
      tenant: parts[1],
      channel: parts.slice(2, -1).join(KEY_SEPARATOR),
      thread: parts.at(-1),
    })),
  ),
  z.object({
    platform: z.literal(adapters.map((adapter) => adapter.platform)),
    tenant: z.string().check(z.minLength(1)),
    channel: z.string().check(z.minLength(1)),
    thread: z.string(),
  }),
);
const conversationKeySchema = z.pipe(
  keyFields,
  z.transform(({ thread, ...place }): ConversationKey => ({ ...place, ...(thread ? { thread } : {}) })),
);

export const admin = new Hono<AppEnv>();

admin.use("*", adminToken());

admin.get("/conversations/:key", async (c) => {
  const rt = runtimeFor(c.env);
  // Hono hands the parameter over already percent-decoded.
  const key = conversationKeySchema.safeParse(c.req.param("key"));
  if (!key.success) {
    return c.json({ error: "key must be platform|tenant|channel|thread (thread may be empty), URL-encoded" }, 400);
  }
  const [state, secondsLeft, placeSettings, feedback] = await Promise.all([
    rt.store.load(key.data),
    rt.store.secondsLeft(key.data),
    rt.placeSettings.read(key.data),
    rt.feedback.counts(key.data),
  ]);
  // The place's digest: how its last slot ended (posted, nothing said, over budget: skipped), and whether late.
  const digest = placeSettings.digest && { last: await rt.digests.latest(placeSettings.digest.scheduleId) };
  if (!state)
    return c.json({ key: key.data, active: false, placeSettings, feedback, ...(digest ? { digest } : {}) }, 404);
  const answers = await rt.store.recentAnswers(key.data, state.id);
  return c.json({
    key: key.data,
    active: true,
    placeSettings,
    feedback,
    ...(digest ? { digest } : {}),
    conversation: {
      id: state.id,
      startedAt: state.startedAt,
      lastActivityAt: state.lastActivityAt,
      expiresInSeconds: secondsLeft,
      lastBotReplyAt: state.lastBotReplyAt ?? null,
      participants: participantsOf(state.recent),
      summary: state.summary ?? null,
      // What the thread or the replies are about (lib/jobs/parent.ts): first in every answer's prompt.
      parents: Object.values(state.parents ?? {}).filter((parent) => parent !== false),
      messages: state.recent,
    },
    answers,
  });
});

/** One tenant: its installation (never its tokens) and today's model tokens against its budget. */
admin.get("/tenants/:platform/:tenant", async (c) => {
  const rt = runtimeFor(c.env);
  const platform = z.literal(adapters.map((adapter) => adapter.platform)).safeParse(c.req.param("platform"));
  if (!platform.success) return c.json({ error: "unknown platform" }, 400);
  const where = { platform: platform.data, tenant: c.req.param("tenant") };
  const [installation, usage] = await Promise.all([rt.installations.get(where), rt.budgets.usage(where)]);
  return c.json({
    ...where,
    installation: installation && {
      teamName: installation.teamName ?? null,
      botUserId: installation.botUserId,
      scopes: installation.scopes,
      installerUserId: installation.installerUserId ?? null,
      installedAt: installation.installedAt,
      tokenExpiresAt: installation.expiresAt ?? null,
    },
    usage,
  });
});

function participantsOf(messages: { role: string; authorId: string; authorName: string }[]) {
  const seen = new Map<string, { id: string; name: string; messages: number }>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    const p = seen.get(m.authorId) ?? { id: m.authorId, name: m.authorName, messages: 0 };
    p.messages += 1;
    seen.set(m.authorId, p);
  }
  return [...seen.values()];
}
