import { beforeAll, describe, expect, it } from "vitest";
import { DEDUPE_TTL_SECONDS } from "../../lib/conversation/store-options.ts";
import { DISCORD_MAX_CLOCK_SKEW_SECONDS, verifyDiscordRequest } from "../../lib/platforms/discord/verify.ts";
import { discordSignature, generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";

// Discord publishes no signature vector (nor does discord-interactions-js, whose tests make a key pair): these
// sign with a key pair made here, as Discord signs with the application's.
let keys: DiscordSigningKeys;
let otherKeys: DiscordSigningKeys;
const body = JSON.stringify({ type: 1, id: "1", application_id: "2", token: "t", version: 1 });
const timestamp = "1700000000";
const NOW_SECONDS = Number(timestamp) + 10;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  otherKeys = await generateDiscordKeys();
});

const verify = (over: Partial<Parameters<typeof verifyDiscordRequest>[0]>) =>
  verifyDiscordRequest({
    publicKey: keys.publicKeyHex,
    signature: null,
    timestamp,
    rawBody: body,
    nowSeconds: NOW_SECONDS,
    ...over,
  });

describe("verifyDiscordRequest", () => {
  it("accepts a signature over timestamp + raw body made with the application's key", async () => {
    expect(await verify({ signature: await discordSignature(keys.privateKey, timestamp, body) })).toEqual({ ok: true });
  });

  it("accepts the public key in upper-case hex too", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ publicKey: keys.publicKeyHex.toUpperCase(), signature })).toEqual({ ok: true });
  });

  it("refuses a signature made with another key", async () => {
    expect(await verify({ signature: await discordSignature(otherKeys.privateKey, timestamp, body) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("refuses when the body was changed after signing, even by one space", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ signature, rawBody: `${body} ` })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses when the timestamp header does not match the signed one", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ signature, timestamp: "1700000001" })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses missing headers, and tells malformed headers apart from a wrong signature", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ signature: null })).toEqual({ ok: false, reason: "missing_headers" });
    expect(await verify({ signature, timestamp: null })).toEqual({ ok: false, reason: "missing_headers" });
    expect(await verify({ signature: "zz".repeat(64) })).toEqual({ ok: false, reason: "malformed" });
    expect(await verify({ signature: "ab".repeat(63) })).toEqual({ ok: false, reason: "malformed" });
    expect(await verify({ signature, timestamp: "1.7e9" })).toEqual({ ok: false, reason: "malformed" });
    expect(await verify({ signature, timestamp: ` ${timestamp}` })).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses a correctly signed request whose timestamp is more than 5 minutes old or ahead: a replay", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    const at = (offset: number) => verify({ signature, nowSeconds: Number(timestamp) + offset });
    expect(await at(DISCORD_MAX_CLOCK_SKEW_SECONDS)).toEqual({ ok: true });
    expect(await at(-DISCORD_MAX_CLOCK_SKEW_SECONDS)).toEqual({ ok: true });
    expect(await at(DISCORD_MAX_CLOCK_SKEW_SECONDS + 1)).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(await at(-DISCORD_MAX_CLOCK_SKEW_SECONDS - 1)).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(DISCORD_MAX_CLOCK_SKEW_SECONDS).toBe(300);
  });

  it("leaves no gap for a replay: the seen mark of an interaction outlives the window its request is accepted in", () => {
    // Accepted from 5 minutes before its timestamp to 5 minutes after: a copy can come up to 10 minutes after the
    // first delivery, and the ingest's seen mark (lib/keys.ts `seen:`) must still drop it then.
    expect(DEDUPE_TTL_SECONDS).toBeGreaterThanOrEqual(2 * DISCORD_MAX_CLOCK_SKEW_SECONDS);
  });

  it("names the setting when the configured public key is not 64 hex characters", async () => {
    await expect(verify({ publicKey: "abc", signature: "ab".repeat(64) })).rejects.toThrow(/DISCORD_PUBLIC_KEY/);
  });
});
