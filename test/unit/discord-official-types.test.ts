/**
 * @module
 * Our zod schemas for what Discord sends agree with discord-api-types, Discord's payloads as a maintained type
 * package defines them: every payload the official type allows passes the schema's type (no field we require that
 * Discord may leave out, no type that differs), and every field the schema names exists in the official type (no
 * misspelt field that would stay undefined). `npm run typecheck` checks these; the tests here run the schemas on
 * payloads written as the official types, so that a check of the types is also a check of the schemas.
 */
import type {
  APIApplicationCommandInteractionData,
  APIChannel,
  APIInteraction,
  APIMessage,
  GatewayGuildCreateDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildRoleCreateDispatchData,
  GatewayHelloData,
  GatewayMessageCreateDispatchData,
  GatewayMessageReactionAddDispatchData,
  GatewayReadyDispatchData,
  GatewayReceivePayload,
  RESTGetAPIGatewayBotResult,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import type * as z from "../../lib/zod.ts";
import {
  type guildCreateSchema,
  guildDeleteSchema,
  type roleEventSchema,
} from "../../lib/platforms/discord/gateway/guild-lifecycle.ts";
import { helloSchema, type payloadSchema, type readySchema } from "../../lib/platforms/discord/gateway/protocol.ts";
import type { reactionSchema } from "../../lib/platforms/discord/gateway/reaction.ts";
import { gatewayBotSchema } from "../../lib/platforms/discord/gateway/shard-layout.ts";
import type { commandDataSchema, interactionSchema, messageSchema } from "../../lib/platforms/discord/schema.ts";
import type { postedMessageSchema } from "../../lib/platforms/discord/send.ts";
import type { channelSchema } from "../../lib/platforms/discord/visibility.ts";

/**
 * The official type as a type literal at every depth: an interface is not assignable to a zod loose object's input
 * (its `[key: string]: unknown`), a mapped copy of it is.
 */
type Open<T> = T extends readonly (infer E)[] ? Open<E>[] : T extends object ? { [K in keyof T]: Open<T[K]> } : T;
/** The fields the schema names, without the loose object's index signature. */
type Named<Schema extends z.ZodMiniType> = keyof { [K in keyof z.input<Schema> as string extends K ? never : K]: true };
/** The fields the schema names that the official type lacks (never, when there are none). */
type Misnamed<Official, Schema extends z.ZodMiniType> = Exclude<
  Named<Schema>,
  Official extends unknown ? keyof Official : never
>;
/** true when every official payload passes the schema's type; the schema's misnamed fields when it names any. */
type Agrees<Official, Schema extends z.ZodMiniType> = [Open<Official>] extends [z.input<Schema>]
  ? [Misnamed<Official, Schema>] extends [never]
    ? true
    : Misnamed<Official, Schema>
  : false;
/** Only that every official payload passes the schema's type: for a schema that also reads another object's fields. */
type Accepts<Official, Schema extends z.ZodMiniType> = [Open<Official>] extends [z.input<Schema>] ? true : false;
/** Fails the typecheck unless `T` is `true` (it names the misspelt fields otherwise). */
function agrees<T extends true>(): T {
  return true as T;
}

describe("our Discord schemas and discord-api-types", () => {
  it("agree on the Gateway's payloads", () => {
    agrees<Agrees<GatewayReceivePayload, typeof payloadSchema>>();
    agrees<Agrees<GatewayHelloData, typeof helloSchema>>();
    agrees<Agrees<GatewayReadyDispatchData, typeof readySchema>>();
    agrees<Agrees<GatewayMessageCreateDispatchData, typeof messageSchema>>();
    agrees<Agrees<GatewayMessageReactionAddDispatchData, typeof reactionSchema>>();
    agrees<Agrees<GatewayGuildCreateDispatchData, typeof guildCreateSchema>>();
    agrees<Agrees<GatewayGuildRoleCreateDispatchData, typeof roleEventSchema>>();
    agrees<Agrees<GatewayGuildDeleteDispatchData, typeof guildDeleteSchema>>();
  });

  it("agree on interactions and the REST answers Parley reads", () => {
    agrees<Agrees<APIInteraction, typeof interactionSchema>>();
    agrees<Agrees<APIApplicationCommandInteractionData, typeof commandDataSchema>>();
    // The same schema reads the Gateway's MESSAGE_CREATE, whose `guild_id` and `member` a REST message lacks.
    agrees<Accepts<APIMessage, typeof messageSchema>>();
    agrees<Agrees<APIMessage, typeof postedMessageSchema>>();
    agrees<Agrees<APIChannel, typeof channelSchema>>();
    agrees<Agrees<RESTGetAPIGatewayBotResult, typeof gatewayBotSchema>>();
  });

  it("parse payloads written as the official types", () => {
    const hello: GatewayHelloData = { heartbeat_interval: 41_250 };
    const deleted: GatewayGuildDeleteDispatchData = { id: "613425648685547541" };
    const outage: GatewayGuildDeleteDispatchData = { id: "613425648685547541", unavailable: true };
    const bot: RESTGetAPIGatewayBotResult = {
      url: "wss://gateway.discord.gg",
      shards: 9,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    };
    expect(
      [helloSchema, guildDeleteSchema, guildDeleteSchema, gatewayBotSchema].map(
        (s, i) => s.safeParse([hello, deleted, outage, bot][i]).success,
      ),
    ).toEqual([true, true, true, true]);
  });
});
