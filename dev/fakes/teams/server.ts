/**
 * @module
 * The Teams fake: one server standing for the Bot Connector (`{serviceUrl}v3/conversations/...`, ./connector.ts),
 * the Microsoft identity platform's token endpoint (`POST /{tenant}/oauth2/v2.0/token`, ./identity.ts) and the Bot
 * Connector's OpenID metadata and key set (`GET /v1/.well-known/openidconfiguration`, `GET /v1/.well-known/keys`),
 * with the control routes of every fake and people's side (./people.ts; clicks on cards, ./clicks.ts). It holds one
 * bot registration (app id, secret, single- or multi-tenant) and signs the activities it sends with its own key.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { configRoutes, controlBody, createFakeControl, filterByQuery, serveFake } from "../control.ts";
import type { FakeFault } from "../faults.ts";
import { FileStore, sendFile } from "../files.ts";
import { readBody, sendJson } from "../http.ts";
import { RateLimiter } from "../rate-limit.ts";
import { newSigningKey, publicJwk } from "../signing-keys.ts";
import type { Bot } from "./activities.ts";
import { cardRoutes } from "./clicks.ts";
import { type ConnectorCall, callConnector, connectorPath, SERVICE_PATH } from "./connector.ts";
import { type BotApp, IdentityPlatform, isTokenPath } from "./identity.ts";
import { peopleRoutes } from "./people.ts";
import { stopStream } from "./streams.ts";
import { World } from "./world.ts";

export const OPENID_METADATA_PATH = "/v1/.well-known/openidconfiguration";
const KEYS_PATH = "/v1/.well-known/keys";
/** Where the Connector serves a picture pasted into a message, to the bot's token. */
const ATTACHMENT_PATH = /^\/amer\/v3\/attachments\/([^/]+)\/views\/original$/;
/** The channels the Connector's keys sign for; the unendorsed key signs for another channel only. */
const TEAMS_ENDORSEMENTS = ["msteams", "skype", "webchat"];
const OTHER_ENDORSEMENTS = ["webchat"];

export const FAKE_APP_ID = "9c1e6a2d-4b7f-4e3a-8d5c-2f0b1a7e6c34";
export const FAKE_APP_PASSWORD = "fake-teams-app-secret";

interface Settings {
  botName: string;
  rsc: boolean;
  rateLimits: boolean;
  endpoint?: string;
}
const settingsPatchSchema = z.strictObject({
  botName: z.string().min(1).optional(),
  endpoint: z.url().optional(),
  rsc: z.boolean().optional(),
  rateLimits: z.boolean().optional(),
});

const conversationSchema = z.strictObject({ conversation: z.string().min(1) });

export interface TeamsFakeOptions {
  port: number;
  host?: string;
  app?: Partial<BotApp>;
  settings?: Partial<Settings>;
}

export interface RunningTeamsFake {
  url: string;
  /** The service URL the fake's activities name. */
  serviceUrl: string;
  app: BotApp;
  close(): Promise<void>;
}

/** The call's route as faults and the record name it: a typing activity is not a message, nor a stream's update. */
function routeOf(method: string, body: string): ConnectorCall["route"] {
  if (method === "PUT") return "update activity";
  if (!/"type"\s*:\s*"typing"/.test(body)) return "send activity";
  return body.includes('"streaminfo"') ? "stream update" : "send typing";
}

function refuseAsConnector(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit") {
    const headers: Record<string, string> = fault.retryAfter
      ? { "Retry-After": String(Math.ceil(fault.retryAfter)) }
      : {};
    return sendJson(res, 429, { error: { code: "TooManyRequests", message: "Too many requests." } }, headers);
  }
  const status = fault.fault === "refuse" ? fault.status : (fault.fault === "error" && fault.status) || 500;
  const code = fault.fault === "error" ? fault.error : status >= 500 ? "ServiceError" : "BadArgument";
  sendJson(res, status, { error: { code, message: `scripted ${code}` } });
}

export async function startTeamsFake(opts: TeamsFakeOptions): Promise<RunningTeamsFake> {
  const initial: Settings = { botName: "Parley Teams", rsc: false, rateLimits: true, ...opts.settings };
  let settings = initial;
  const app: BotApp = { appId: FAKE_APP_ID, password: FAKE_APP_PASSWORD, tenantId: undefined, ...opts.app };
  let origin = "";
  const world = new World();
  const limits = new RateLimiter();
  const identity = new IdentityPlatform();
  const files = new FileStore();
  const keys = { endorsed: newSigningKey(), unendorsed: newSigningKey() };
  const bot = (): Bot => ({ id: `28:${app.appId}`, name: settings.botName, appId: app.appId });
  const serviceUrl = () => `${origin}${SERVICE_PATH}`;
  const control = createFakeControl<ConnectorCall>({
    name: "teams",
    failRoute: "send activity",
    refuse: refuseAsConnector,
    onReset() {
      settings = initial;
      world.reset();
      limits.reset();
      identity.reset();
      files.reset();
    },
  });
  control.addRoutes({
    ...configRoutes(
      () => settings,
      settingsPatchSchema,
      (patch) => (settings = { ...settings, ...patch }),
    ),
    ...peopleRoutes({
      world,
      bot,
      serviceUrl,
      rsc: () => settings.rsc,
      endpoint: () => settings.endpoint,
      keys,
      files,
    }),
    ...cardRoutes({ world, bot, serviceUrl, key: keys.endorsed }),
    "GET /__activities": (_body, url) =>
      filterByQuery(
        [...world.activities.values()].filter((a) => a.byBot),
        url.searchParams,
      ),
    "GET /__stats": () => ({ ratelimited: limits.refusals(), tokenExchanges: identity.exchanges }),
    "POST /__stop-stream": (body) => ({
      stopped: stopStream(world, controlBody(conversationSchema, body).conversation),
    }),
    "POST /__expire-tokens": (body) => ({
      expired: identity.expireUsedFor(controlBody(conversationSchema, body).conversation),
    }),
  });

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    if (method === "GET" && url.pathname === OPENID_METADATA_PATH)
      return sendJson(res, 200, {
        issuer: "https://api.botframework.com",
        authorization_endpoint: "https://invalid.botframework.com",
        jwks_uri: `${origin}${KEYS_PATH}`,
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["private_key_jwt"],
      });
    if (method === "GET" && url.pathname === KEYS_PATH)
      return sendJson(res, 200, {
        keys: [publicJwk(keys.endorsed, TEAMS_ENDORSEMENTS), publicJwk(keys.unendorsed, OTHER_ENDORSEMENTS)],
      });
    const attachment = ATTACHMENT_PATH.exec(url.pathname)?.[1];
    if (method === "GET" && attachment) {
      const file = files.get(decodeURIComponent(attachment));
      if (!identity.authorized(req.headers.authorization, "attachments"))
        return sendJson(res, 401, { message: "Authorization has been denied for this request." });
      return file ? sendFile(res, file) : sendJson(res, 404, { error: { code: "NotFound", message: "Not found." } });
    }
    const body = method === "GET" ? "" : await readBody(req);
    if (method === "POST" && isTokenPath(url.pathname)) {
      const answer = identity.exchange(app, url.pathname, new URLSearchParams(body));
      return sendJson(res, answer.status, answer.body);
    }
    const target = connectorPath(method, url.pathname);
    const admission = await control.admit(
      { route: routeOf(method, body), conversation: target?.conversation ?? "" },
      res,
    );
    if (!admission) return;
    const answer = callConnector(
      {
        world,
        identity,
        limits,
        rateLimits: () => settings.rateLimits,
        bot,
        record: (call) => control.record({ ...call, at: Date.now() }),
      },
      { method, pathname: url.pathname, authorization: req.headers.authorization, body },
    );
    admission.send(answer.status, answer.json, answer.headers);
  }

  const server = await serveFake(control, opts, handle);
  origin = server.origin;
  return { url: server.origin, serviceUrl: serviceUrl(), app, close: server.close };
}
