import { describe, expect, it } from "vitest";
import { askAboutCommandName, discordCommands } from "../../lib/platforms/discord/commands.ts";
import { INTERACTION_TOKEN_LIFETIME_MS, parseDiscordInteraction } from "../../lib/platforms/discord/parse.ts";
import { snowflakeTime } from "../../lib/platforms/discord/schema.ts";
import { catchUpRequest } from "../../lib/catch-up/request.ts";
import { APPLICATION_ID, askAboutInteraction, askInteraction, pingInteraction, snowflake } from "../support/discord.ts";

const NOW = 1_750_000_000_000;
const alice = { id: "200000000000000001", name: "Alice" };
const guildPlace = { guildId: "300000000000000001", channelId: "400000000000000001" };

describe("parseDiscordInteraction", () => {
  it("recognises PING", () => {
    expect(parseDiscordInteraction(pingInteraction(), { now: NOW })).toEqual({ kind: "ping" });
  });

  it("turns /ask in a guild into a command message keyed by guild and channel, answered through the interaction", () => {
    const interaction = askInteraction(guildPlace, alice, "  what is a monad?  ");
    const parsed = parseDiscordInteraction(interaction, { now: NOW });
    expect(parsed.kind).toBe("message");
    if (parsed.kind !== "message") return;
    expect(parsed.message).toEqual({
      key: { platform: "discord", tenant: guildPlace.guildId, channel: guildPlace.channelId },
      id: interaction.id,
      author: { id: alice.id, name: "Alice", isBot: false },
      text: "what is a monad?",
      ts: snowflakeTime(interaction.id),
      addressing: "command",
      mentions: [],
      replyTarget: {
        platform: "discord",
        kind: "interaction",
        applicationId: APPLICATION_ID,
        token: interaction.token,
        expiresAt: NOW + INTERACTION_TOKEN_LIFETIME_MS,
      },
    });
  });

  it("keys a DM by the person, since there is no guild", () => {
    const parsed = parseDiscordInteraction(askInteraction({ channelId: "500000000000000001" }, alice, "hi"), {
      now: NOW,
    });
    expect(parsed.kind === "message" && parsed.message.key.tenant).toBe(`dm:${alice.id}`);
  });

  it("says the bot's DM is a DM, a group DM and a private thread private, and leaves a server channel for the job to look up", () => {
    const visibility = (interaction: ReturnType<typeof askInteraction> & { context?: number }) => {
      const parsed = parseDiscordInteraction(interaction, { now: NOW });
      return parsed.kind === "message" ? (parsed.message.visibility ?? "look up") : parsed.kind;
    };
    expect(visibility(askInteraction({ channelId: "500000000000000001" }, alice, "hi"))).toBe("dm");
    expect(visibility(askInteraction(guildPlace, alice, "hi"))).toBe("look up");
    expect(
      visibility({ ...askInteraction(guildPlace, alice, "hi"), channel: { id: guildPlace.channelId, type: 12 } }),
    ).toBe("private");
    // Outside a server: only the bot's own DM is `dm`; a group DM has other readers.
    const dm = askInteraction({ channelId: "500000000000000001" }, alice, "hi");
    expect(visibility({ ...dm, context: 1 })).toBe("dm");
    expect(visibility({ ...dm, context: 2 })).toBe("private");
    expect(visibility({ ...dm, context: 2, channel: { id: dm.channel_id, type: 1 } })).toBe("private");
    expect(visibility({ ...dm, channel: { id: dm.channel_id, type: 3 } })).toBe("private");
  });

  it("prefers the server nickname as the author's name", () => {
    const interaction = askInteraction(guildPlace, alice, "hi");
    interaction.member!.nick = "Al" as never;
    const parsed = parseDiscordInteraction(interaction, { now: NOW });
    expect(parsed.kind === "message" && parsed.message.author.name).toBe("Al");
  });

  it("turns the message command into a question that quotes the target message and names its author", () => {
    const target = {
      author: { id: "200000000000000002", name: "Bob" },
      content: "Rust has no GC.\nIt uses ownership.",
    };
    const parsed = parseDiscordInteraction(askAboutInteraction(guildPlace, alice, target), { now: NOW });
    expect(parsed.kind).toBe("message");
    if (parsed.kind !== "message") return;
    expect(parsed.message.addressing).toBe("command");
    expect(parsed.message.author.id).toBe(alice.id);
    expect(parsed.message.text).toContain("Bob");
    expect(parsed.message.text).toContain("> Rust has no GC.\n> It uses ownership.");
  });

  it("refuses /ask without a question, and a message command without its resolved target", () => {
    const noQuestion = askInteraction(guildPlace, alice, "x");
    (noQuestion.data as { options: unknown[] }).options = [];
    expect(parseDiscordInteraction(noQuestion, { now: NOW }).kind).toBe("invalid");
    const noTarget = askAboutInteraction(guildPlace, alice, { author: alice, content: "x" });
    (noTarget.data as { resolved: unknown }).resolved = {};
    expect(parseDiscordInteraction(noTarget, { now: NOW }).kind).toBe("invalid");
  });

  it("says which field is wrong without echoing any value", () => {
    const parsed = parseDiscordInteraction(
      { type: 2, id: "not-a-snowflake", token: "secret-token-value" },
      { now: NOW },
    );
    expect(parsed.kind).toBe("invalid");
    if (parsed.kind !== "invalid") return;
    expect(parsed.issues).toContain("id");
    expect(parsed.issues).not.toContain("secret-token-value");
  });

  it("leaves another app's components, autocomplete and unknown commands unsupported rather than invalid", () => {
    const component = { ...askInteraction(guildPlace, alice, "x"), type: 3 };
    expect(parseDiscordInteraction(component, { now: NOW })).toEqual({ kind: "unsupported", reason: "component" });
    const other = askInteraction(guildPlace, alice, "x");
    (other.data as { name: string }).name = "poll";
    expect(parseDiscordInteraction(other, { now: NOW })).toEqual({ kind: "unsupported", reason: "command:poll" });
  });
});

describe("snowflakeTime", () => {
  it("reads the creation time from a snowflake (Discord's documented example)", () => {
    expect(snowflakeTime("175928847299117063")).toBe(Date.UTC(2016, 3, 30, 11, 18, 25, 796));
    const at = Date.now();
    expect(snowflakeTime(snowflake(at))).toBe(at);
  });
});

describe("/catchup", () => {
  const catchUp = (options: unknown[]) => {
    const interaction = askInteraction(guildPlace, alice, "unused");
    return parseDiscordInteraction(
      { ...interaction, data: { ...interaction.data, name: "catchup", options } },
      { now: NOW },
    );
  };

  it("says the engine's catch-up request, with the hours asked for when given", () => {
    const bot = { userId: APPLICATION_ID, name: "Parley", aliases: [] };
    const plain = catchUp([]);
    const hours = catchUp([{ name: "hours", type: 4, value: 3 }]);
    expect(plain.kind === "message" && catchUpRequest(plain.message.text, bot)).toEqual({});
    expect(hours.kind === "message" && catchUpRequest(hours.message.text, bot)).toEqual({ windowMs: 3 * 3_600_000 });
    expect(hours).toMatchObject({ message: { addressing: "command" } });
  });

  it("is declared with an optional whole number of hours", () => {
    expect(discordCommands("Parley").find((c) => c.name === "catchup")).toMatchObject({
      type: 1,
      options: [{ name: "hours", type: 4, required: false, min_value: 1 }],
    });
  });
});

describe("the command declarations", () => {
  it("declare /ask with one required string option and the message command, without a description on it", () => {
    const [ask, about] = discordCommands("Parley");
    expect(ask).toMatchObject({ name: "ask", type: 1, options: [{ name: "question", type: 3, required: true }] });
    expect(about).toEqual({ name: "Ask Parley about this", type: 3 });
  });

  it("keep the message command's name within Discord's 32 characters for long bot names", () => {
    const name = askAboutCommandName("The Extraordinarily Helpful Assistant");
    expect(name.length).toBeLessThanOrEqual(32);
    expect(name).toMatch(/^Ask The .* about this$/);
  });
});
