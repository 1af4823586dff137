/**
 * @module
 * The Telegram Bot API fake: `POST|GET <base>/bot<token>/<method>` (JSON, form or query arguments) for the methods
 * of ./methods.ts and ./webhook.ts, answered `{ok, result}` or `{ok: false, error_code, description, parameters?}`
 * as Telegram answers: 401 for a token it does not know, 404 "Not Found: method not found" for a method it does not
 * serve, 400 for a parameter it does not know (./params.ts), 429 with `retry_after` past flood control
 * (./limits.ts). People's side is driven by control routes (./people.ts), which deliver updates to the bots'
 * webhooks as Telegram does (./deliver.ts). See dev/fakes/README.md for every route.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { configRoutes, controlBody, createFakeControl, filterByQuery } from "../control.ts";
import { readBody, startHttpServer } from "../http.ts";
import type { Delivery } from "./deliver.ts";
import { TELEGRAM_FAKE_BOT } from "./bot.ts";
import { BotApiError, ERRORS, refuseAsTelegram, sendBotApiError, sendOk } from "./errors.ts";
import { DEFAULT_LIMITS, FloodControl, type TelegramLimits } from "./limits.ts";
import { METHODS } from "./methods.ts";
import { checkParams, METHOD_PARAMS, readArgs } from "./params.ts";
import { peopleRoutes } from "./people.ts";
import { pressRoutes } from "./presses.ts";
import { deleteWebhook, setWebhook, webhookInfo } from "./webhook.ts";
import { World, type FakeBot } from "./world.ts";
import { FileStore } from "../files.ts";
import { getFile, serveTelegramFile, telegramFileRoutes } from "./files.ts";

export { TELEGRAM_FAKE_BOT };

const botSchema = z.strictObject({
  token: z.string().regex(/^\d+:[A-Za-z0-9_-]{20,}$/),
  id: z.number().int().positive(),
  username: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{3,31}$/),
  first_name: z.string().min(1),
  privacyMode: z.boolean().default(true),
});
const limitRule = z.strictObject({ limit: z.number().int().positive(), windowMs: z.number().int().positive() });
const settingsPatchSchema = z.strictObject({
  limits: z
    .strictObject({
      enabled: z.boolean(),
      perChat: limitRule,
      perGroup: limitRule,
      perBot: limitRule,
      drafts: limitRule,
    })
    .partial()
    .optional(),
});

export interface TelegramFakeOptions {
  port: number;
  host?: string;
  /** Bots besides TELEGRAM_FAKE_BOT. */
  bots?: z.input<typeof botSchema>[];
  limits?: Partial<TelegramLimits>;
}

export interface RunningTelegramFake {
  /** The TELEGRAM_API_BASE_URL, e.g. http://127.0.0.1:8096 */
  url: string;
  close(): Promise<void>;
}

const METHOD_PATH = /^\/bot([^/]+)\/([A-Za-z]+)$/;

export async function startTelegramFake(opts: TelegramFakeOptions): Promise<RunningTelegramFake> {
  const initialLimits: TelegramLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  let limits = initialLimits;
  const world = new World();
  const flood = new FloodControl();
  const deliveries: Delivery[] = [];
  const files = new FileStore();
  const addBot = (raw: z.input<typeof botSchema>): FakeBot => {
    const bot = { ...botSchema.parse(raw), is_bot: true, nextUpdateId: 1 };
    world.bots.set(bot.token, bot);
    return bot;
  };
  const addBots = () => [{ ...TELEGRAM_FAKE_BOT }, ...(opts.bots ?? [])].forEach(addBot);
  addBots();
  const control = createFakeControl<Record<string, unknown>>({
    name: "telegram",
    failRoute: "sendMessage",
    refuse: refuseAsTelegram,
    onReset() {
      limits = initialLimits;
      world.bots.clear();
      world.reset();
      flood.reset();
      deliveries.length = 0;
      files.reset();
      addBots();
    },
  });
  control.addRoutes({
    ...configRoutes(
      () => ({ limits }),
      settingsPatchSchema,
      (patch) => {
        limits = { ...limits, ...patch.limits };
        return { limits };
      },
    ),
    ...peopleRoutes(world, deliveries),
    ...pressRoutes(world, deliveries),
    "POST /__bot": (body) => ({ ok: true, id: addBot(controlBody(botSchema, body)).id }),
    "GET /__messages": (_body, url) =>
      filterByQuery(
        [...world.messages.values()].map((m) => ({
          ...m,
          from: m.from.id,
          reactions: Object.fromEntries(m.reactions),
        })),
        url.searchParams,
      ),
    "GET /__drafts": (_body, url) => filterByQuery([...world.drafts.values()], url.searchParams),
    "GET /__deliveries": (_body, url) => filterByQuery(deliveries, url.searchParams),
    "GET /__stats": () => ({ ratelimited: flood.refusals() }),
  });
  control.addRoutes(telegramFileRoutes(files));

  async function callMethod(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    token: string,
    method: string,
  ): Promise<void> {
    const bot = world.botByToken(decodeURIComponent(token));
    if (!bot) return sendBotApiError(res, ERRORS.unauthorized);
    // Telegram's server finds methods whatever their case.
    const name = Object.keys(METHOD_PARAMS).find((m) => m.toLowerCase() === method.toLowerCase());
    if (!name) return sendBotApiError(res, ERRORS.methodNotFound);
    const args = readArgs(
      req.headers["content-type"],
      req.method === "POST" ? await readBody(req) : "",
      url.searchParams,
    );
    if (args instanceof BotApiError) return sendBotApiError(res, args);
    const admission = await control.admit({ route: name, bot: bot.id, ...flat(args) }, res);
    if (!admission) return;
    const refused = checkParams(name, args);
    if (refused) return admission.reply(() => sendBotApiError(res, refused));
    try {
      const result =
        name === "setWebhook"
          ? setWebhook(bot, args)
          : name === "deleteWebhook"
            ? deleteWebhook(bot)
            : name === "getWebhookInfo"
              ? webhookInfo(bot)
              : name === "getFile"
                ? getFile(files, bot, args)
                : METHODS[name]!(
                    {
                      world,
                      bot,
                      flood,
                      limits,
                      record: (call) => control.record({ ...call, bot: bot.id, at: Date.now() }),
                    },
                    args,
                  );
      admission.reply(() => sendOk(res, result));
    } catch (err) {
      if (!(err instanceof BotApiError)) throw err;
      admission.reply(() => sendBotApiError(res, err));
    }
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      if (serveTelegramFile(req, res, url, files, world)) return;
      const [, token, method] = METHOD_PATH.exec(url.pathname) ?? [];
      if (!token || !method) return sendBotApiError(res, new BotApiError(404, "Not Found"));
      await callMethod(req, res, url, token, method);
    },
  });
  return { url: server.origin, close: server.close };
}

/** The call's short fields, for fault rules to match (`"chat_id":-100…`). */
function flat(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => typeof v !== "object"));
}
