import { beforeAll, describe, expect, it } from "vitest";
import { verifyDiscordRequest } from "../../lib/platforms/discord/verify.ts";
import { discordSignature, generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";

let keys: DiscordSigningKeys;
let otherKeys: DiscordSigningKeys;
const body = JSON.stringify({ type: 1, id: "1", application_id: "2", token: "t", version: 1 });
const timestamp = "1700000000";

beforeAll(async () => {
  keys = await generateDiscordKeys();
  otherKeys = await generateDiscordKeys();
});

const verify = (over: Partial<Parameters<typeof verifyDiscordRequest>[0]>) =>
  verifyDiscordRequest({ publicKey: keys.publicKeyHex, signature: null, timestamp, rawBody: body, ...over });

describe("verifyDiscordRequest", () => {
  it("accepts a signature over timestamp + raw body made with the application's key", async () => {
    expect(await verify({ signature: await discordSignature(keys.privateKey, timestamp, body) })).toEqual({ ok: true });
  });

  it("accepts the public key in upper-case hex too", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ publicKey: keys.publicKeyHex.toUpperCase(), signature })).toEqual({ ok: true });
  });

  it("refuses a signature made with another key", async () => {
    expect(await verify({ signature: await discordSignature(otherKeys.privateKey, timestamp, body) })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses when the body was changed after signing, even by one space", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ signature, rawBody: body + " " })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses when the timestamp header does not match the signed one", async () => {
    const signature = await discordSignature(keys.privateKey, timestamp, body);
    expect(await verify({ signature, timestamp: "1700000001" })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses missing headers and signatures that are not 128 hex characters", async () => {
    expect(await verify({ signature: null })).toEqual({ ok: false, reason: "missing_headers" });
    expect(await verify({ signature: await discordSignature(keys.privateKey, timestamp, body), timestamp: null })).toEqual({ ok: false, reason: "missing_headers" });
    expect(await verify({ signature: "zz".repeat(64) })).toEqual({ ok: false, reason: "malformed" });
    expect(await verify({ signature: "ab".repeat(63) })).toEqual({ ok: false, reason: "malformed" });
  });

  it("names the setting when the configured public key is not 64 hex characters", async () => {
    await expect(verify({ publicKey: "abc", signature: "ab".repeat(64) })).rejects.toThrow(/DISCORD_PUBLIC_KEY/);
  });
});
