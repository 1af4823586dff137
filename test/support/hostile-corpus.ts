/**
 * @module
 * The hostile-input corpus: for every route, every hostile body under every way of (mis)signing it, plus wrong
 * methods and unknown paths. Each case builds a fresh Request on demand. Only bodies that cannot be a valid
 * delivery are ever signed correctly, so no case may lead to a write, a publish or a model call.
 */
import { discordSignature, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { qstashSignature } from "../../dev/signers/qstash.ts";
import type { JobPayload } from "../../lib/queue/job.ts";
import { slackSignature } from "../../dev/signers/slack.ts";
import { twilioFormSignature } from "../../dev/signers/twilio.ts";
import { askInteraction } from "./discord.ts";
import { hostileBodies, type HostileBody } from "./hostile-bodies.ts";
import { seededRandom } from "./text-corpus.ts";
import { SLACK_SIGNING_SECRET, BOT_USER_ID, slackMessageEvent } from "./slack.ts";
import { BOT_NUMBER, smsParams, TWILIO_AUTH_TOKEN } from "./twilio.ts";

export interface HostileCase {
  name: string;
  request(): Promise<Request>;
}

type SigningMode = "unsigned" | "garbage" | "wrong key" | "signed for other bytes" | "stale" | "future" | "correct";
const SIGNING_MODES: readonly SigningMode[] = [
  "unsigned",
  "garbage",
  "wrong key",
  "signed for other bytes",
  "stale",
  "future",
  "correct",
];
/** Slack's replay window is 5 minutes; QStash's tokens live 5 minutes. */
const STALE_SECONDS = 5 * 60 + 1;
const FUTURE_SECONDS = 10 * 60;
const ORIGIN = "https://worker.test";
const CONTENT_TYPES = [null, "text/plain", "multipart/form-data; boundary=x", "application/octet-stream"];

interface Route {
  path: string;
  form: boolean;
  valid: string;
  /** Headers that carry the signature for `bytes` in `mode`; `other` are bytes the request does not carry. */
  sign(mode: Exclude<SigningMode, "unsigned">, bytes: Uint8Array, other: Uint8Array): Promise<Record<string, string>>;
}

const now = () => Math.floor(Date.now() / 1000);

export interface CorpusSettings {
  marker: string;
  publicBaseUrl: string;
  qstashCurrentKey: string;
  discordKeys: DiscordSigningKeys;
  otherDiscordKeys: DiscordSigningKeys;
  /**
   * `hostileJob(marker)` sealed as the Worker seals jobs (lib/queue/sealed-job.ts), as JSON: what job cases start from.
   */
  sealedJob: string;
}

/** Non-ASCII, so that a Latin-1 or UTF-16 copy of a payload differs from the payload. */
const NON_ASCII = "café ✓";

/** The job every job route's cases start from, before it is sealed. */
export function hostileJob(marker: string): JobPayload {
  return {
    key: { platform: "slack", tenant: "THOSTILE", channel: "CHOSTILE" },
    conversationId: "c1",
    trigger: { id: "1.1", ts: 1, authorId: "UHOSTILE", authorName: "Hostile" },
    required: true,
    reason: "direct_mention",
    bot: { userId: BOT_USER_ID, name: "Parley", aliases: [] },
    replyTarget: { platform: "slack", channel: "CHOSTILE" },
    systemNotes: [`${marker} ${NON_ASCII}`],
  };
}

function routes(s: CorpusSettings): Route[] {
  const text = `${s.marker} ${NON_ASCII}`;
  const slack: Route = {
    path: "/slack/events",
    form: false,
    valid: slackMessageEvent({
      team: "THOSTILE",
      channel: "CHOSTILE",
      user: "UHOSTILE",
      text: `<@${BOT_USER_ID}> ${text}`,
    }).body,
    async sign(mode, bytes, other) {
      const ts = mode === "stale" ? now() - STALE_SECONDS : mode === "future" ? now() + FUTURE_SECONDS : now();
      if (mode === "garbage") return { "X-Slack-Request-Timestamp": "yesterday", "X-Slack-Signature": "v0=not-hex" };
      const secret = mode === "wrong key" ? `${SLACK_SIGNING_SECRET}x` : SLACK_SIGNING_SECRET;
      const signature = await slackSignature(secret, String(ts), mode === "signed for other bytes" ? other : bytes);
      return { "X-Slack-Request-Timestamp": String(ts), "X-Slack-Signature": signature };
    },
  };
  const twilioUrl = `${s.publicBaseUrl}/twilio/sms`;
  const twilio: Route = {
    path: "/twilio/sms",
    form: true,
    valid: new URLSearchParams(smsParams({ from: "+15550000001", body: text, to: BOT_NUMBER })).toString(),
    async sign(mode, bytes, other) {
      if (mode === "garbage") return { "X-Twilio-Signature": "%%%" };
      // Twilio has no timestamp: "stale" and "future" become signatures for the URL the request reached, not ours.
      const url = mode === "stale" || mode === "future" ? `${ORIGIN}/twilio/sms` : twilioUrl;
      const token = mode === "wrong key" ? `${TWILIO_AUTH_TOKEN}x` : TWILIO_AUTH_TOKEN;
      return {
        "X-Twilio-Signature": await twilioFormSignature(token, url, mode === "signed for other bytes" ? other : bytes),
      };
    },
  };
  const discord: Route = {
    path: "/discord/interactions",
    form: false,
    valid: JSON.stringify(askInteraction({ guildId: "1", channelId: "2" }, { id: "3", name: "Hostile" }, text)),
    async sign(mode, bytes, other) {
      if (mode === "garbage") return { "X-Signature-Ed25519": "zz".repeat(64), "X-Signature-Timestamp": "now" };
      const ts = String(mode === "stale" ? now() - STALE_SECONDS : mode === "future" ? now() + FUTURE_SECONDS : now());
      const keys = mode === "wrong key" ? s.otherDiscordKeys : s.discordKeys;
      // The Worker verifies over the body decoded as text: sign what it will see, so malformed bytes reach the parser.
      const signed = new TextDecoder().decode(mode === "signed for other bytes" ? other : bytes);
      return {
        "X-Signature-Ed25519": await discordSignature(keys.privateKey, ts, signed),
        "X-Signature-Timestamp": ts,
      };
    },
  };
  const job = (kind: string): Route => ({
    path: `/jobs/${kind}`,
    form: false,
    valid: s.sealedJob,
    async sign(mode, bytes, other) {
      if (mode === "garbage") return { "Upstash-Signature": "a.b.c" };
      const key = mode === "wrong key" ? "sig_notTheSigningKey" : s.qstashCurrentKey;
      const issuedAt =
        mode === "stale" ? now() - 2 * STALE_SECONDS : mode === "future" ? now() + FUTURE_SECONDS : now();
      const url = `${s.publicBaseUrl}/jobs/${kind}`;
      return {
        "Upstash-Signature": await qstashSignature(
          key,
          url,
          mode === "signed for other bytes" ? other : bytes,
          issuedAt,
        ),
      };
    },
  });
  return [slack, twilio, discord, job("reply"), job("judge"), job("memory"), job("failed")];
}

/** Discord checks no timestamp window, so a correct signature with an old timestamp is as good as a correct one. */
function signsValidly(route: Route, mode: SigningMode): boolean {
  return mode === "correct" || (route.path.startsWith("/discord") && (mode === "stale" || mode === "future"));
}

function bodyCases(route: Route, bodies: HostileBody[]): HostileCase[] {
  const cases: HostileCase[] = [];
  // Not the valid payload itself: a mis-encoding of it may decode to exactly that text.
  const other = new TextEncoder().encode(`${route.valid}\n`);
  let n = 0;
  for (const body of bodies) {
    for (const mode of SIGNING_MODES) {
      if (signsValidly(route, mode) && !body.malformed) continue;
      const contentType =
        n++ % 3 === 0
          ? CONTENT_TYPES[n % CONTENT_TYPES.length]
          : route.form
            ? "application/x-www-form-urlencoded"
            : "application/json";
      cases.push({
        name: `POST ${route.path} ${body.label}, ${mode}, ${contentType ?? "no content type"}`,
        async request() {
          const headers: Record<string, string> = mode === "unsigned" ? {} : await route.sign(mode, body.bytes, other);
          if (contentType) headers["Content-Type"] = contentType;
          return new Request(`${ORIGIN}${route.path}`, { method: "POST", headers, body: body.bytes });
        },
      });
    }
  }
  return cases;
}

const WRONG_METHODS = ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"];
const UNKNOWN_PATHS = [
  "/",
  "/slack",
  "/slack/events/",
  "/slack/events/x",
  "/SLACK/EVENTS",
  "/twilio",
  "/twilio/voice",
  "/discord",
  "/discord/interactions/../interactions",
  "/jobs",
  "/jobs/",
  "/jobs/unknown",
  "/jobs/reply/extra",
  "/jobs/%2e%2e",
  "/health/x",
  "/.env",
  "/admin",
  "/%00",
  "/%ff",
  `/${"a".repeat(8_000)}`,
  "/slack%2Fevents",
  "/jobs/__proto__",
  "/jobs/constructor",
  "/index.ts",
  "/wrangler.toml",
];

function methodAndPathCases(all: Route[]): HostileCase[] {
  const cases: HostileCase[] = [];
  const plain = (method: string, path: string, body?: string): HostileCase => ({
    name: `${method} ${path.slice(0, 60)}`,
    request: async () => new Request(`${ORIGIN}${path}`, { method, ...(body === undefined ? {} : { body }) }),
  });
  for (const route of all) for (const method of WRONG_METHODS) cases.push(plain(method, route.path));
  for (const method of ["POST", "PUT", "DELETE"])
    cases.push(plain(method, "/health", method === "POST" ? "{}" : undefined));
  for (const path of UNKNOWN_PATHS)
    for (const method of ["GET", "POST"]) cases.push(plain(method, path, method === "POST" ? "{}" : undefined));
  return cases;
}

/** The whole corpus, the same on every run (seeded). */
export function hostileCorpus(s: CorpusSettings, seed = 9): HostileCase[] {
  const random = seededRandom(seed);
  const all = routes(s);
  return [
    ...all.flatMap((route) => bodyCases(route, hostileBodies(route.valid, route.form, random))),
    ...methodAndPathCases(all),
  ];
}
