/**
 * @module
 * The Gateway fake's control routes (POST bodies are JSON; `shard` picks a shard's session, the latest by default):
 * - `POST /__message {channel_id, guild_id?, content, author, ...}` → `{id, seq}`: a MESSAGE_CREATE to the guild's
 * shard;
 * - `POST /__dispatch {t, d, guild_id?}`: any dispatch to the guild's shard (or shard 0);
 * - `POST /__reconnect {shard?}` (op 7), `/__invalid_session {resumable, shard?}` (op 9; `false` also ends the
 *   session), `/__close {code, shard?}`, `/__drop_acks {count}`;
 * - `POST /__guilds {ids?: string[], count?: n}` → `{guilds}`: the bot's guilds (replaced; `count` makes ids that
 *   spread evenly over shards); `POST /__guild_create {guild_id, bot_role_id?}` (the guild with the bot's managed
 *   role); `POST /__guild_delete {guild_id, unavailable?}` (without `unavailable` the bot was removed: the guild
 *   leaves the list);
 * - `GET|POST /__config {threshold?, recommendedShards?, maxConcurrency?, enforceIdentifyConcurrency?,
 *   identifyIntervalMs?, enabledPrivilegedIntents?, helloDelaysMs?}`; `GET /__gateway_bot` (what
 *   `GET /gateway/bot` answers, without `url`);
 * - `POST /__resume_url {dead: boolean, mode?: "refuse" | "hang"}`: the resume URL stops answering (or answers again);
 * - `GET /__state`: counters, the current session, each shard's owner, the close codes the fake sent;
 * - `POST /__fail {fault: "drop_after", path: "/dispatch", bodyContains?: "\"t\":\"MESSAGE_CREATE\"", ...}`
 *   (../faults.ts): the socket drops instead of delivering that dispatch (it stays in the session for a RESUME);
 * - `POST /__reset`: no guilds, no sessions, no faults, default settings, live resume URL.
 */
import { z } from "zod";
import { configRoutes, controlBody, type ControlRoute } from "../control.ts";
import { guildObject, type GatewayCounters } from "./connection.ts";
import { OP, sendPayload, type Sessions } from "./sessions.ts";
import { newGuildIds, shardingSettingsSchema, type Guilds, type ShardingSettings } from "./sharding.ts";

export interface ClosedByFake {
  at: number;
  code: number;
  reason: string;
  shard?: [number, number];
}

export interface GatewayControlParts {
  sessions: Sessions;
  guilds: Guilds;
  counters: GatewayCounters;
  closes: ClosedByFake[];
  sharding(): ShardingSettings;
  updateSharding(patch: Partial<ShardingSettings>): ShardingSettings;
  dispatchMessage(message: object): string;
  setDropAcks(count: number): void;
  setResumeUrl(state: { dead: boolean; mode: "refuse" | "hang" }): void;
}

const shardPick = z.object({ shard: z.number().int().min(0).optional() });
const guildRef = z.object({ guild_id: z.string().regex(/^\d+$/) });

export function gatewayControlRoutes(parts: GatewayControlParts): Record<string, ControlRoute> {
  const { sessions, guilds } = parts;
  const picked = (body: unknown) => sessions.pick(controlBody(shardPick.loose(), body).shard);
  return {
    "POST /__message": (body) => ({
      ok: true,
      id: parts.dispatchMessage(body as object),
      seq: sessions.current?.seq ?? 0,
    }),
    "POST /__dispatch": (body) => {
      const {
        t,
        d,
        guild_id: guildId,
      } = controlBody(z.object({ t: z.string().min(1), d: z.unknown(), guild_id: z.string().optional() }), body);
      return { ok: true, delivered: sessions.dispatchToGuild(guildId, t, d) };
    },
    "POST /__reconnect": (body) => ({ ok: sendPayload(picked(body)?.socket, { op: OP.RECONNECT, d: null }) }),
    "POST /__invalid_session": (body) => {
      const session = picked(body);
      const resumable = (body as { resumable?: unknown }).resumable === true;
      const sent = sendPayload(session?.socket, { op: OP.INVALID_SESSION, d: resumable });
      if (session && !resumable) sessions.invalidate(session);
      return { ok: sent };
    },
    "POST /__drop_acks": (body) => {
      parts.setDropAcks(controlBody(z.object({ count: z.number().int().min(0).default(1) }), body).count);
      return { ok: true };
    },
    "POST /__close": (body) => {
      const socket = picked(body)?.socket;
      socket?.close(
        controlBody(z.object({ code: z.number().int().min(1000).max(4999).default(4000) }).loose(), body).code,
        "closed by test",
      );
      return { ok: Boolean(socket) };
    },
    "POST /__guilds": (body) => {
      const spec = controlBody(
        z.strictObject({
          ids: z.array(z.string().regex(/^\d+$/)).optional(),
          count: z.number().int().min(0).max(100_000).optional(),
        }),
        body,
      );
      guilds.set(spec.ids ?? newGuildIds(spec.count ?? 0));
      return { ok: true, guilds: guilds.all() };
    },
    "POST /__guild_create": (body) => {
      const { guild_id: id, bot_role_id: roleId } = controlBody(
        guildRef.extend({ bot_role_id: z.string().regex(/^\d+$/).optional() }),
        body,
      );
      guilds.add(id);
      return { ok: true, delivered: sessions.dispatchToGuild(id, "GUILD_CREATE", guildObject(id, roleId)) };
    },
    "POST /__guild_delete": (body) => {
      const { guild_id: id, unavailable } = controlBody(guildRef.extend({ unavailable: z.boolean().optional() }), body);
      if (!unavailable) guilds.remove(id);
      return {
        ok: true,
        delivered: sessions.dispatchToGuild(id, "GUILD_DELETE", unavailable ? { id, unavailable: true } : { id }),
      };
    },
    ...configRoutes(parts.sharding, shardingSettingsSchema.partial(), parts.updateSharding),
    "GET /__gateway_bot": () => guilds.gatewayBot(parts.sharding()),
    "POST /__resume_url": (body) => {
      parts.setResumeUrl(
        controlBody(z.strictObject({ dead: z.boolean(), mode: z.enum(["refuse", "hang"]).default("refuse") }), body),
      );
      return { ok: true };
    },
    "GET /__state": () => {
      const current = sessions.current;
      return {
        ...parts.counters,
        connected: current?.socket?.readyState === 1,
        sessionId: current?.id ?? null,
        seq: current?.seq ?? 0,
        shards: sessions
          .owners()
          .map((s) => ({ shard: s.shard, sessionId: s.id, connected: s.socket?.readyState === 1, seq: s.seq })),
        guilds: guilds.all().length,
        undelivered: sessions.undelivered,
        closes: parts.closes,
      };
    },
  };
}
