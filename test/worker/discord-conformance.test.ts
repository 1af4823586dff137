/**
 * The Discord conformance corpus (test/fixtures/platforms/discord, each file with its source and licence): real
 * interactions and Gateway dispatches, each with the outcome it must have. Every case goes through the module
 * that reads it (the interaction parser, lib/platforms/discord/gateway/dispatch.ts for the Gateway) for the exact
 * message, and through the real
 * way in: interactions signed to POST /discord/interactions, dispatches sent by the fake Gateway to a Gateway
 * connection that feeds the pipeline (only what the bot's intents ask for arrives).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import type { GatewayConnection } from "../../lib/platforms/discord/gateway/connection.ts";
import { readGatewayDispatch } from "../../lib/platforms/discord/gateway/dispatch.ts";
import { createGatewayConnection, type GatewayStorage } from "../../functions/discord-gateway-feed.ts";
import { parseDiscordInteraction } from "../../lib/platforms/discord/parse.ts";
import type { InboundMessage } from "../../lib/message.ts";
import gatewayGuilds from "../fixtures/platforms/discord/gateway-guilds.json";
import gatewayMessages from "../fixtures/platforms/discord/gateway-messages.json";
import gatewayReactions from "../fixtures/platforms/discord/gateway-reactions.json";
import interactionsComponents from "../fixtures/platforms/discord/interactions-components.json";
import interactionsDocs from "../fixtures/platforms/discord/interactions-docs.json";
import interactionsLibrary from "../fixtures/platforms/discord/interactions-discord-interactions-js.json";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { memoryGatewayStorage } from "../support/gateway-storage.ts";
import { eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "discordcorpus";
const NOW = Date.UTC(2026, 7, 6, 12);

interface Corpus<Case> {
  source: string;
  licence: string;
  bot: { userId: string; name: string };
  cases: Case[];
}
interface InteractionCase {
  name: string;
  payload: Record<string, unknown>;
  expect: {
    answer: "pong" | "deferred" | "unsupported" | "refused" | "note";
    status: number;
    reason?: string;
    message?: Record<string, string>;
  };
}
interface DispatchCase {
  name: string;
  event: string;
  payload: Record<string, unknown>;
  context?: { botRoleId?: string };
  expect: { kind: string; delivered?: boolean; [field: string]: unknown };
}

const interactionFiles = {
  "interactions-docs": interactionsDocs,
  "interactions-discord-interactions-js": interactionsLibrary,
  "interactions-components": interactionsComponents,
} as Record<string, Corpus<InteractionCase>>;
const dispatchFiles = {
  "gateway-messages": gatewayMessages,
  "gateway-reactions": gatewayReactions,
  "gateway-guilds": gatewayGuilds,
} as Record<string, Corpus<DispatchCase>>;
const count = (files: Record<string, Corpus<unknown>>) => Object.values(files).reduce((n, f) => n + f.cases.length, 0);

const keys = await generateDiscordKeys();
const env = suiteEnv(SUITE, { DISCORD_PUBLIC_KEY: keys.publicKeyHex, DISCORD_BOT_TOKEN: "test-discord-bot-token" });
// The messages' jobs run (and answer on the fakes), so that none is left waiting when the suite ends.
pumpJobsDuringSuite(env, SUITE);
let logs: { mock: { calls: unknown[][] }; mockRestore(): void }[];
const lines = () => logs.flatMap((spy) => spy.mock.calls.map((c) => String(c[0])));

beforeAll(() => {
  logs = [vi.spyOn(console, "log"), vi.spyOn(console, "warn")];
});
afterAll(() => {
  for (const spy of logs) spy.mockRestore();
});

it("holds at least 40 Discord interactions and Gateway dispatches, each file naming its source and licence", () => {
  expect(count(interactionFiles) + count(dispatchFiles)).toBeGreaterThanOrEqual(40);
  for (const file of [...Object.values(interactionFiles), ...Object.values(dispatchFiles)]) {
    expect(file.source).toMatch(/^discord\//);
    expect(file.licence).toMatch(/CC BY-SA 4\.0|MIT/);
  }
});

/** What a parsed interaction says, in the corpus's terms. */
function interactionOutcome(payload: unknown): InteractionCase["expect"] | { answer: string } {
  const parsed = parseDiscordInteraction(payload, { now: NOW });
  switch (parsed.kind) {
    case "ping":
      return { answer: "pong", status: 200 };
    case "unsupported":
      return { answer: "unsupported", status: 200, reason: parsed.reason };
    case "invalid":
      return { answer: "refused", status: 400 };
    // A press of Parley's button: decided or not, answered within the 3 s (with a note here: no question is open).
    case "control":
      return { answer: "note", status: 200 };
    case "message": {
      const m = parsed.message;
      const message = {
        addressing: m.addressing,
        tenant: m.key.tenant,
        channel: m.key.channel,
        visibility: m.visibility ?? "lookup",
        text: m.text,
      };
      return { answer: "deferred", status: 200, message };
    }
  }
}

const ANSWER_TYPE = { pong: 1, deferred: 5, unsupported: 4, note: 4 } as const;

for (const [file, corpus] of Object.entries(interactionFiles)) {
  describe(`${file}.json`, () => {
    it.each(corpus.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      expect(interactionOutcome(c.payload)).toEqual(c.expect);
      const res = await interactAsDiscord(env, keys, c.payload);
      expect(res.status).toBe(c.expect.status);
      const answer = (await res.json()) as { type?: number; data?: { flags?: number } };
      if (c.expect.answer === "refused") return;
      expect(answer.type).toBe(ANSWER_TYPE[c.expect.answer]);
      // Only the person who used an unsupported command sees that it is one; only the presser sees a press's note.
      if (c.expect.answer === "unsupported" || c.expect.answer === "note") expect(answer.data?.flags).toBe(64);
    });
  });
}

/** A read dispatch in the corpus's terms: a message's fields, or the lifecycle/ignored/invalid outcome as read. */
function dispatchOutcome(
  read: ReturnType<typeof readGatewayDispatch>,
  expected: DispatchCase["expect"],
): Record<string, unknown> {
  if (read.kind === "invalid") return { kind: "invalid" };
  if (read.kind !== "message") return read;
  const m: InboundMessage = read.message;
  return {
    kind: "message",
    addressing: m.addressing,
    tenant: m.key.tenant,
    channel: m.key.channel,
    text: m.text,
    ...(m.replyToId ? { replyToId: m.replyToId } : {}),
    ...(m.author.isBot ? { isBot: true } : {}),
    ...(m.feedback ? { feedback: m.feedback } : {}),
    ...("id" in expected ? { id: m.id } : {}),
  };
}

describe("Gateway dispatches, through the fake Gateway to the bot's connection", () => {
  const CONTROL = () => String(env.DISCORD_GATEWAY_CONTROL_URL);
  let storage: GatewayStorage;
  let connection: GatewayConnection;
  beforeAll(async () => {
    storage = memoryGatewayStorage(env);
    connection = createGatewayConnection(env, storage)!;
    await connection.start();
    await eventually(async () => connection.status().phase === "ready", 10_000, "the Gateway to be ready");
  });
  afterAll(() => connection.shutdown());

  /** Sends the dispatch; once the connection has handled it, the log lines it wrote. */
  async function throughTheGateway(c: DispatchCase): Promise<{ delivered: boolean; written: string[] }> {
    const before = lines().length;
    const guildId = typeof c.payload.guild_id === "string" ? c.payload.guild_id : undefined;
    const res = await fetch(`${CONTROL()}/__dispatch`, {
      method: "POST",
      body: JSON.stringify({ t: c.event, d: c.payload, ...(guildId ? { guild_id: guildId } : {}) }),
    });
    const { delivered } = (await res.json()) as { delivered: number };
    if (delivered > 0) {
      const { seq } = (await (await fetch(`${CONTROL()}/__state`)).json()) as { seq: number };
      await eventually(async () => (connection.status().seq ?? 0) >= seq, 10_000, "the dispatch to arrive");
      await connection.idle();
    }
    return { delivered: delivered > 0, written: lines().slice(before) };
  }

  for (const [file, corpus] of Object.entries(dispatchFiles)) {
    describe(`${file}.json`, () => {
      it.each(corpus.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
        const { delivered: deliveredExpected = true, ...expected } = c.expect;
        const guild = String(c.payload.guild_id ?? c.payload.id);
        if (c.context?.botRoleId) await storage.botRoles.set(guild, c.context.botRoleId);
        const bot = { ...corpus.bot, ...(c.context?.botRoleId ? { roleId: c.context.botRoleId } : {}) };
        expect(dispatchOutcome(readGatewayDispatch(c.event, c.payload, bot, NOW), expected)).toEqual(expected);

        const { delivered, written } = await throughTheGateway(c);
        expect(delivered).toBe(deliveredExpected);
        const about = (event: string) => written.filter((l) => l.includes(`"event":"${event}"`));
        if (expected.kind === "message") {
          const id =
            c.event === "MESSAGE_REACTION_ADD"
              ? `${String(c.payload.message_id)}:not_you:${String(c.payload.user_id)}`
              : String(c.payload.id);
          expect(about("decision").filter((l) => l.includes(`"message":"${id}"`))).toHaveLength(1);
        } else if (expected.kind === "ignored" && c.event === "MESSAGE_CREATE") {
          const ofThis = about("discord_ignored").filter((l) => l.includes(`"message":"${String(c.payload.id)}"`));
          expect(ofThis.map((l) => JSON.parse(l).reason)).toEqual([expected.reason]);
        } else if (expected.kind === "invalid") {
          expect(about("discord_invalid")).toHaveLength(1);
        } else if (expected.kind === "bot_role") {
          expect(await storage.botRoles.get(String(expected.guildId))).toBe(expected.roleId);
        } else if (expected.kind === "guild_removed") {
          expect(await storage.botRoles.get(String(expected.guildId))).toBeUndefined();
        }
        if (expected.kind !== "message") expect(about("decision")).toEqual([]);
        if (expected.kind !== "invalid") expect(about("discord_invalid")).toEqual([]);
      });
    });
  }
});
