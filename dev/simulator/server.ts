/**
 * @module
 * The simulator page's server (`npm run dev` starts it on SIMULATOR_PORT, 8788): serves public/, sends what the
 * simulated people write to the Worker exactly as Slack, Discord and Twilio would (signed with the local secrets),
 * or through the Telegram fake, which delivers it as Telegram does,
 * and answers the page's polls with the conversation, the Worker's decisions and the admin view of a conversation;
 * a person's reaction or button press on the bot's Slack message goes as Slack sends it (./actions.ts).
 */
import { readFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { settingsShape } from "../../lib/config.ts";
import { readBody, sendJson, startHttpServer } from "../fakes/http.ts";
import { collectBotPosts, type FakeOrigins } from "./bot-posts.ts";
import { readySlackWorkspaces } from "./install-slack.ts";
import { makeSimulatorAdmin } from "./send-slash.ts";
import {
  DISCORD_PLACE,
  GOOGLE_CHAT_SPACE,
  googleChatDmOf,
  PEOPLE,
  SLACK_CHANNEL,
  TELEGRAM_GROUP,
  type SlackWorkspace,
} from "./people.ts";
import { googleChatPlace, readyGoogleChat } from "./send-google-chat.ts";
import { readyTeams, type TeamsChats, teamsPlace } from "./send-teams.ts";
import { readyTelegram, telegramPlace } from "./send-telegram.ts";
import { send, sendRequest, type SendContext } from "./send.ts";
import { handleAction } from "./actions.ts";
import { Timeline } from "./timeline.ts";

const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "public");
const STATIC_FILES: Record<string, string> = {
  "/": "index.html",
  "/app.js": "app.js",
  "/inspector.js": "inspector.js",
  "/view.js": "view.js",
  "/render.js": "render.js",
  "/style.css": "style.css",
};
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
  /**
   * Installs the Slack workspaces through the Worker's install routes (once the Worker answers); the page's setup
   * waits for them. Rejects, saying why, when an install fails (the page then shows that instead).
   */
  installSlackWorkspaces(): Promise<SlackWorkspace[]>;
  /** Feed one line of the Worker's output: decision and job events show up beside the conversation. */
  observeLogLine(line: string): void;
  close(): Promise<void>;
}

export async function startSimulator(opts: SimulatorOptions): Promise<RunningSimulator> {
  const setting = (name: string) => opts.vars.get(name) ?? "";
  const botName = setting("BOT_NAME") || "Parley";
  // "New conversation" sends the first reset word, which the Worker reads from the same setting.
  const resetWord = settingsShape.RESET_WORDS.parse(opts.vars.get("RESET_WORDS"))[0] ?? "start over";
  const timeline = new Timeline();
  const twilioPlace = { accountSid: setting("TWILIO_ACCOUNT_SID"), botNumber: setting("TWILIO_PHONE_NUMBER") };

  // The Teams channel, group chat and 1:1 chats, made once the fake answers (it names them).
  let teamsChats: TeamsChats | Error | undefined;
  const teamsReady = readyTeams(opts.fakes.teams).then(
    (chats) => {
      teamsChats = chats;
    },
    (err: unknown) => {
      teamsChats = new Error(`the Teams chats could not be made: ${err instanceof Error ? err.message : String(err)}`);
    },
  );
  const chats = (): TeamsChats => {
    if (teamsChats === undefined) throw new Error("the Teams chats are still being made");
    if (teamsChats instanceof Error) throw teamsChats;
    return teamsChats;
  };
  const collect = () =>
    collectBotPosts(timeline, opts.fakes, {
      botName,
      twilioAccountSid: twilioPlace.accountSid,
      teamsChats: () => (teamsChats instanceof Error ? undefined : teamsChats),
    });
  let polling = false;
  const poller = setInterval(() => {
    if (polling) return;
    polling = true;
    collect()
      .catch(() => {}) // a fake that is still starting is read on the next tick
      .finally(() => (polling = false));
  }, POLL_MS);

  let slackWorkspaces: SlackWorkspace[] | Error | undefined;
  const workspaces = (): SlackWorkspace[] => {
    if (slackWorkspaces === undefined) throw new Error("the Slack workspaces are still being installed");
    if (slackWorkspaces instanceof Error) throw slackWorkspaces;
    return slackWorkspaces;
  };
  // The Telegram group, its topic and the private chats, made once the fake answers.
  let telegramTopic: number | Error | undefined;
  const telegramReady = readyTelegram(opts.fakes.telegram).then(
    (topic) => {
      telegramTopic = topic;
    },
    (err: unknown) => {
      telegramTopic = new Error(
        `the Telegram chats could not be made: ${err instanceof Error ? err.message : String(err)}`,
      );
    },
  );
  // The Google Chat space and DMs; a failure shows when a message is sent there (the fake then knows no space).
  const googleChatReady = readyGoogleChat(opts.fakes.googleChat).catch(() => {});
  const topic = (): number => {
    if (telegramTopic === undefined) throw new Error("the Telegram chats are still being made");
    if (telegramTopic instanceof Error) throw telegramTopic;
    return telegramTopic;
  };
  const sendContext: SendContext = {
    ...opts,
    timeline,
    botName,
    setting,
    slackWorkspaces: workspaces,
    telegramTopic: topic,
    teamsChats: chats,
  };
  const actions = {
    workerUrl: opts.workerUrl,
    signingSecret: setting("SLACK_SIGNING_SECRET"),
    slackFakeUrl: opts.fakes.slack,
    telegramFakeUrl: opts.fakes.telegram,
    googleChatFakeUrl: opts.fakes.googleChat,
    discord: {
      workerUrl: opts.workerUrl,
      discordFakeUrl: opts.fakes.discord,
      applicationId: setting("DISCORD_APPLICATION_ID"),
    },
    workspaces,
  };
  async function installSlackWorkspaces(): Promise<SlackWorkspace[]> {
    slackWorkspaces = undefined;
    slackWorkspaces = await readySlackWorkspaces({
      workerUrl: opts.workerUrl,
      slackFakeUrl: opts.fakes.slack,
      vars: opts.vars,
    }).catch(
      (err: unknown) => new Error(`the Slack installs failed: ${err instanceof Error ? err.message : String(err)}`),
    );
    if (slackWorkspaces instanceof Error) throw slackWorkspaces;
    await makeSimulatorAdmin(opts.fakes.slack, slackWorkspaces);
    return slackWorkspaces;
  }

  /**
   * The Worker's admin view (`path` under /admin/), with the token `npm run dev` gave the Worker. No conversation
   * yet is an answer, not an error: the page gets it as 200, so the browser logs no failed request.
   */
  async function adminView(path: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${opts.workerUrl}/admin/${path}`, {
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
        res.writeHead(200, {
          "Content-Type": CONTENT_TYPES[extname(file)] ?? "text/plain",
          "Cache-Control": "no-store",
        });
        return void res.end(await readFile(join(PUBLIC_DIR, file)));
      }
      if (req.method === "GET" && url.pathname === "/api/setup") {
        // Answered once the workspaces are installed: the page (and the browser tests' wait) start with them.
        if (!Array.isArray(slackWorkspaces))
          return sendJson(res, 503, { error: slackWorkspaces?.message ?? "installing the Slack workspaces…" });
        await Promise.all([telegramReady, googleChatReady, teamsReady]);
        return sendJson(res, 200, {
          botName,
          resetWord,
          canClear: Boolean(opts.clearStore),
          people: PEOPLE.map(({ handle, name, phone }) => ({ handle, name, phone })),
          slack: {
            workspaces: slackWorkspaces.map(({ team, name }) => ({ team, name })),
            channelId: SLACK_CHANNEL,
            channel: "general",
          },
          discord: {
            place: `discord|${DISCORD_PLACE.guild}|${DISCORD_PLACE.channel}|`,
            channel: "general",
            gateway: Boolean(opts.discordGatewayControlUrl),
          },
          sms: {
            botNumber: twilioPlace.botNumber,
            placePrefix: `twilio|${twilioPlace.accountSid}|${twilioPlace.botNumber}|`,
          },
          telegram: {
            group: TELEGRAM_GROUP.title,
            topic: TELEGRAM_GROUP.topic,
            places: Object.fromEntries(
              PEOPLE.map((p) => [
                p.handle,
                Object.fromEntries(
                  (["general", "topic", "private"] as const).map((spot) => [
                    spot,
                    telegramPlace(spot, p, topic()).place,
                  ]),
                ),
              ]),
            ),
          },
          googleChat: {
            space: GOOGLE_CHAT_SPACE.title,
            spacePlace: googleChatPlace(GOOGLE_CHAT_SPACE.name),
            dmPlaces: Object.fromEntries(PEOPLE.map((p) => [p.handle, googleChatPlace(googleChatDmOf(p))])),
          },
          teams: {
            channel: "General",
            group: "Team chat",
            channelPlace: teamsPlace(chats().tenant, chats().channel),
            groupPlace: teamsPlace(chats().tenant, chats().group),
            dmPlaces: Object.fromEntries(
              PEOPLE.map((p) => [p.handle, teamsPlace(chats().tenant, chats().dms[p.handle]!)]),
            ),
          },
        });
      }
      if (req.method === "GET" && url.pathname === "/api/timeline") return sendJson(res, 200, timeline.snapshot());
      if (req.method === "GET" && url.pathname === "/api/conversation") {
        const { status, body } = await adminView(
          `conversations/${encodeURIComponent(url.searchParams.get("place") ?? "")}`,
        );
        return sendJson(res, status, body);
      }
      // One workspace's installation (never its token) and its model tokens today, as the admin view has them.
      if (req.method === "GET" && url.pathname === "/api/tenant") {
        const { status, body } = await adminView(
          `tenants/slack/${encodeURIComponent(url.searchParams.get("tenant") ?? "")}`,
        );
        return sendJson(res, status, body);
      }
      if (req.method === "POST" && url.pathname === "/api/clear") {
        if (!opts.clearStore)
          return sendJson(res, 409, { error: "this stack uses a Redis of its own (REDIS_URL): clear it yourself" });
        await opts.clearStore();
        // Every post the fakes hold now becomes an entry first, so that clearing forgets it for good.
        await collect();
        timeline.clear();
        // The installations went with the rest of Redis: the workspaces are installed again, the same way.
        await installSlackWorkspaces();
        return sendJson(res, 200, { cleared: true });
      }
      if (req.method === "POST" && url.pathname === "/api/send") {
        const parsed = sendRequest.safeParse(JSON.parse((await readBody(req)) || "{}"));
        if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
        try {
          return sendJson(res, 200, await send(sendContext, parsed.data));
        } catch (err) {
          return sendJson(res, 502, {
            error: `could not reach the Worker: ${err instanceof Error ? err.message : String(err)}`,
          });
        }
      }
      if (await handleAction(actions, req, res, url.pathname)) return;
      sendJson(res, 404, { error: "not found" });
    },
  });
  return {
    origin: server.origin,
    observeLogLine: (line) => timeline.observeLogLine(line),
    installSlackWorkspaces,
    close: async () => {
      clearInterval(poller);
      await server.close();
    },
  };
}
