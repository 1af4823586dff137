import { Receiver } from "@upstash/qstash";
import { describe, expect, it } from "vitest";
import { discordHeaders, generateDiscordKeys, importDiscordPrivateKey } from "../../dev/signers/discord.ts";
import { qstashSignature } from "../../dev/signers/qstash.ts";
import { slackHeaders, slackSignature } from "../../dev/signers/slack.ts";
import { twilioFormSignature, twilioSignature } from "../../dev/signers/twilio.ts";
import { verifyDiscordRequest } from "../../lib/platforms/discord/verify.ts";

// Slack's and Twilio's published examples (platforms.md).
const SLACK = {
  secret: "8f742231b10e8888abcd99yyyzzz85a5",
  timestamp: "1531420618",
  body: "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
  signature: "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
};
const TWILIO = {
  token: "12345",
  url: "https://mycompany.com/myapp.php?foo=1&bar=2",
  // Deliberately out of order: the signer sorts them.
  params: [
    ["To", "+18005551212"],
    ["Caller", "+14158675309"],
    ["Digits", "1234"],
    ["From", "+14158675309"],
    ["CallSid", "CA1234567890ABCDE"],
  ] as [string, string][],
  signature: "RSOYDt4T1cUTdK1PDd93/VVr8B8=",
  signature443: "kvajT1Ptam85bY51eRf/AJRuM3w=",
};
/** The local-only key pair of .dev.vars.example: the simulator signs with the private half. */
const LOCAL_DEV_KEY = {
  publicKeyHex: "89cfca9718b6e524d68d007c1dfcaf62d9fbaa55de878927080691b28e7374b0",
  pkcs8Hex: "302e020100300506032b657004220420bdfe173e37d6e6ba79825cf30280045b562b932c0430043d6891985098e27590",
};

describe("the shared request signers", () => {
  it("sign Slack's published example, from text or from bytes", async () => {
    expect(await slackSignature(SLACK.secret, SLACK.timestamp, SLACK.body)).toBe(SLACK.signature);
    expect(await slackSignature(SLACK.secret, SLACK.timestamp, new TextEncoder().encode(SLACK.body))).toBe(
      SLACK.signature,
    );
    expect(await slackHeaders(SLACK.secret, SLACK.body, SLACK.timestamp)).toEqual({
      "X-Slack-Request-Timestamp": SLACK.timestamp,
      "X-Slack-Signature": SLACK.signature,
    });
  });

  it("sign Twilio's published example, with and without the default port, from pairs or from the form body", async () => {
    expect(await twilioSignature(TWILIO.token, TWILIO.url, TWILIO.params)).toBe(TWILIO.signature);
    expect(await twilioSignature(TWILIO.token, TWILIO.url.replace(".com/", ".com:443/"), TWILIO.params)).toBe(
      TWILIO.signature443,
    );
    expect(await twilioFormSignature(TWILIO.token, TWILIO.url, new URLSearchParams(TWILIO.params).toString())).toBe(
      TWILIO.signature,
    );
    // twilio-node's vectors for a repeated parameter: its distinct values, sorted, each once.
    const repeated: [string, string][] = [
      ["Sid", "CA123"],
      ["SidAccount", "AC123"],
      ["Digits", "5678"],
      ["Digits", "1234"],
      ["Digits", "1234"],
    ];
    expect(await twilioSignature(TWILIO.token, TWILIO.url, repeated)).toBe("IK+Dwps556ElfBT0I3Rgjkr1wJU=");
  });

  it("sign Discord interactions the Worker accepts, with a new key pair and with the simulator's local key", async () => {
    const body = JSON.stringify({ type: 1 });
    const keys = await generateDiscordKeys();
    const local = {
      publicKeyHex: LOCAL_DEV_KEY.publicKeyHex,
      privateKey: await importDiscordPrivateKey(LOCAL_DEV_KEY.pkcs8Hex),
    };
    for (const { publicKeyHex, privateKey } of [keys, local]) {
      const headers = await discordHeaders(privateKey, body);
      const verified = await verifyDiscordRequest({
        publicKey: publicKeyHex,
        signature: headers["X-Signature-Ed25519"]!,
        timestamp: headers["X-Signature-Timestamp"]!,
        rawBody: body,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      expect(verified).toEqual({ ok: true });
    }
  });

  it("sign QStash deliveries that the official Receiver accepts for that URL and body only", async () => {
    const keys = { currentSigningKey: "sig_current", nextSigningKey: "sig_next" };
    const receiver = new Receiver(keys);
    const url = "https://bot.example.com/jobs/reply";
    const signature = await qstashSignature(keys.currentSigningKey, url, '{"v":1}');
    expect(await receiver.verify({ signature, body: '{"v":1}', url })).toBe(true);
    await expect(receiver.verify({ signature, body: '{"v":2}', url })).rejects.toThrow();
    await expect(receiver.verify({ signature, body: '{"v":1}', url: `${url}x` })).rejects.toThrow();
  });
});
