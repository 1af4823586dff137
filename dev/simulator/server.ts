/**
 * @module
 * The simulator page's server (`npm run dev` starts it on SIMULATOR_PORT, 8788): serves public/, sends what the
 * simulated people write to the Worker exactly as Slack, Discord and Twilio would (signed with the local secrets),
 * and answers the page's polls with the conversation, the Worker's decisions and the admin view of a conversation.
 */
import { readFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { settingsSchema } from "../../lib/config.ts";
import { readBody, sendJson, startHttpServer } from "../fakes/http.ts";
import { SLACK_FAKE_BOT } from "../fakes/slack.ts";
import { collectBotPosts, type FakeOrigins } from "./bot-posts.ts";
import { DISCORD_PLACE, PEOPLE, personByHandle, SLACK_PLACE } from "./people.ts";
import { sendAskCommand } from "./send-discord.ts";
import { sendDiscordMessage } from "./send-discord-message.ts";
import { sendSlackMessage } from "./send-slack.ts";
import { sendSms } from "./send-sms.ts";
import { Timeline, type ChatEntry } from "./timeline.ts";

export const DEFAULT_SIMULATOR_PORT = 8788;
const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "public");
const STATIC_FILES: Record<string, string> = { "/": "index.html", "/app.js": "app.js", "/style.css": "style.css" };
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
/** How often the bot's posts are read from the fakes. */
const POLL_MS = 400;

export interface SimulatorOptions {
  port: number;
  host?: string;
  workerUrl: string;
  /** The Worker's local settings (.dev.vars as `npm run dev` passes them): secrets to sign with, the bot's name. */
  vars: ReadonlyMap<string, string>;
  fakes: FakeOrigins;
  /** The Discord Gateway fake's control origin: without it the Discord channel only has `/ask`. */
  discordGatewayControlUrl?: string;
  /** Empties the stack's own Redis; without it (a REDIS_URL of the developer's) the page offers no "clear all". */
  clearStore?: () => Promise<void>;
}

export interface RunningSimulator {
  origin: string;
  /** Feed one line of the Worker's output: decision and job events show up beside the conversation. */
  observeLogLine(line: string): void;
  close(): Promise<void>;
}

const sendRequest = z.object({
  platform: z.enum(["slack", "discord", "sms"]),
  person: z.string(),
  text: z.string().trim().min(1).max(4_000),
  threadTs: z.string().optional(),
  /** Discord: the thread (the id of the message it was started from) to write in; always a channel message. */
  threadId: z.string().regex(/^\d+$/).optional(),
  /** Discord: a channel message through the Gateway, or the `/ask` command. */
  discordMode: z.enum(["message", "ask"]).default("ask"),
});

export async function startSimulator(opts: SimulatorOptions): Promise<RunningSimulator> {
  const setting = (name: string) => opts.vars.get(name) ?? "";
  const botName = setting("BOT_NAME") || "Parley";
  // "New conversation" sends the first reset word, which the Worker reads from the same setting.
  const resetWord = settingsSchema.shape.RESET_WORDS.parse(opts.vars.get("RESET_WORDS"))[0] ?? "start over";
  const timeline = new Timeline();
  const twilioPlace = { accountSid: setting("TWILIO_ACCOUNT_SID"), botNumber: setting("TWILIO_PHONE_NUMBER") };

  let polling = false;
  const poller = setInterval(() => {
    if (polling) return;
    polling = true;
    collectBotPosts(timeline, opts.fakes, { botName, twilioAccountSid: twilioPlace.accountSid })
      .catch(() => {}) // a fake that is still starting is read on the next tick
      .finally(() => (polling = false));
  }, POLL_MS);

  async function send(body: z.output<typeof sendRequest>): Promise<ChatEntry> {
    const person = personByHandle(body.person);
    if (!person) throw new z.ZodError([{ code: "custom", path: ["person"], message: "unknown person", input: body.person }]);
    const base = { author: person.name, bot: false, text: body.text, at: Date.now() };
    if (body.platform === "slack") {
      const parent = body.threadTs ? timeline.entries.find((e) => e.platform === "slack" && e.ts === body.threadTs) : undefined;
      const thread = body.threadTs ? { ts: body.threadTs, parentUserId: parentUserId(parent, person.slackUserId) } : undefined;
      const sent = await sendSlackMessage({ workerUrl: opts.workerUrl, signingSecret: setting("SLACK_SIGNING_SECRET"), botName, slackFakeUrl: opts.fakes.slack }, person, body.text, thread);
      const entry: ChatEntry = {
        ...base,
        id: `${SLACK_PLACE.channel}:${sent.ts}`,
        platform: "slack",
        place: `slack|${SLACK_PLACE.team}|${SLACK_PLACE.channel}|${body.threadTs ?? ""}`,
        ts: sent.ts,
        ...(body.threadTs ? { threadTs: body.threadTs } : {}),
      };
      timeline.add(entry);
      return entry;
    }
    if (body.platform === "discord" && (body.discordMode === "message" || body.threadId)) {
      if (!opts.discordGatewayControlUrl) throw new Error("no Discord Gateway fake is running: use /ask");
      const sent = await sendDiscordMessage(
        { workerUrl: opts.workerUrl, gatewayControlUrl: opts.discordGatewayControlUrl, discordFakeUrl: opts.fakes.discord, botName },
        person,
        body.text,
        body.threadId,
      );
      const channel = body.threadId ?? DISCORD_PLACE.channel;
      const entry: ChatEntry = {
        ...base,
        id: sent.id,
        platform: "discord",
        place: `discord|${DISCORD_PLACE.guild}|${channel}|`,
        ...(body.threadId ? { threadId: body.threadId } : {}),
      };
      timeline.add(entry);
      return entry;
    }
    if (body.platform === "discord") {
      const sent = await sendAskCommand({ workerUrl: opts.workerUrl, applicationId: setting("DISCORD_APPLICATION_ID") }, person, body.text);
      const place = `discord|${DISCORD_PLACE.guild}|${DISCORD_PLACE.channel}|`;
      const entry: ChatEntry = { ...base, id: sent.id, platform: "discord", place, text: `/ask ${body.text}`, interactionToken: sent.token };
      timeline.add(entry);
      const deferred = typeof sent.response === "object" && sent.response !== null && (sent.response as { type?: unknown }).type === 5;
      if (deferred) {
        timeline.add({ id: `${sent.id}:thinking`, platform: "discord", author: botName, bot: true, text: `${botName} is thinking…`, at: Date.now(), place, interactionToken: sent.token, pending: true });
      }
      return entry;
    }
    const sent = await sendSms(
      {
        workerUrl: opts.workerUrl,
        publicBaseUrl: setting("PUBLIC_BASE_URL") || opts.workerUrl,
        accountSid: twilioPlace.accountSid,
        authToken: setting("TWILIO_AUTH_TOKEN"),
        botNumber: twilioPlace.botNumber,
      },
      person,
      body.text,
    );
    const entry: ChatEntry = {
      ...base,
      id: sent.sid,
      platform: "sms",
      place: `twilio|${twilioPlace.accountSid}|${twilioPlace.botNumber}|${person.phone}|`,
      phone: person.phone,
    };
    timeline.add(entry);
    return entry;
  }

  /**
   * The Worker's admin view of one conversation, with the token `npm run dev` gave the Worker. No conversation yet
   * is an answer, not an error: the page gets it as 200, so the browser logs no failed request.
   */
  async function conversation(place: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${opts.workerUrl}/admin/conversations/${encodeURIComponent(place)}`, {
      headers: { Authorization: `Bearer ${setting("ADMIN_TOKEN")}` },
    });
    const body: unknown = await res.json().catch(() => ({ error: `the Worker answered ${res.status}` }));
    const noConversation = res.status === 404 && (body as { active?: unknown }).active === false;
    return { status: noConversation ? 200 : res.status, body };
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      const file = req.method === "GET" ? STATIC_FILES[url.pathname] : undefined;
      if (file) {
        res.writeHead(200, { "Content-Type": CONTENT_TYPES[extname(file)] ?? "text/plain", "Cache-Control": "no-store" });
        return void res.end(await readFile(join(PUBLIC_DIR, file)));
      }
      if (req.method === "GET" && url.pathname === "/api/setup") {
        return sendJson(res, 200, {
          botName,
          resetWord,
          canClear: Boolean(opts.clearStore),
          people: PEOPLE.map(({ handle, name, phone }) => ({ handle, name, phone })),
          slack: { place: `slack|${SLACK_PLACE.team}|${SLACK_PLACE.channel}|`, channel: "general" },
          discord: { place: `discord|${DISCORD_PLACE.guild}|${DISCORD_PLACE.channel}|`, channel: "general", gateway: Boolean(opts.discordGatewayControlUrl) },
          sms: { botNumber: twilioPlace.botNumber, placePrefix: `twilio|${twilioPlace.accountSid}|${twilioPlace.botNumber}|` },
        });
      }
      if (req.method === "GET" && url.pathname === "/api/timeline") return sendJson(res, 200, timeline.snapshot());
      if (req.method === "GET" && url.pathname === "/api/conversation") {
        const { status, body } = await conversation(url.searchParams.get("place") ?? "");
        return sendJson(res, status, body);
      }
      if (req.method === "POST" && url.pathname === "/api/clear") {
        if (!opts.clearStore) return sendJson(res, 409, { error: "this stack uses a Redis of its own (REDIS_URL): clear it yourself" });
        await opts.clearStore();
        timeline.clear();
        return sendJson(res, 200, { cleared: true });
      }
      if (req.method === "POST" && url.pathname === "/api/send") {
        const parsed = sendRequest.safeParse(JSON.parse((await readBody(req)) || "{}"));
        if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
        try {
          return sendJson(res, 200, await send(parsed.data));
        } catch (err) {
          return sendJson(res, 502, { error: `could not reach the Worker: ${err instanceof Error ? err.message : String(err)}` });
        }
      }
      sendJson(res, 404, { error: "not found" });
    },
  });
  return {
    origin: server.origin,
    observeLogLine: (line) => timeline.observeLogLine(line),
    close: async () => {
      clearInterval(poller);
      await server.close();
    },
  };
}

/** Who started the thread: the bot (its Slack user id) when it wrote the parent, else the person who did. */
function parentUserId(parent: ChatEntry | undefined, fallback: string): string {
  if (!parent) return fallback;
  if (parent.bot) return SLACK_FAKE_BOT.userId;
  return PEOPLE.find((p) => p.name === parent.author)?.slackUserId ?? fallback;
}
