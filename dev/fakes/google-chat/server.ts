/**
 * @module
 * The Google Chat fake: one server standing for chat.googleapis.com (`/v1/...`, ./api.ts), oauth2.googleapis.com
 * (`POST /token`, ./oauth.ts) and the key sets Google publishes (`GET /service_accounts/v1/metadata/x509/
 * chat@system.gserviceaccount.com`, `GET /oauth2/v3/certs`, ../signing-keys.ts), with the control routes of
 * every fake and people's side (./people.ts; their clicks on the app's cards, ./clicks.ts). It holds one service
 * account (its JSON key at `GET /__service-account`, or the one given), and signs the events it sends with its own
 * keys for the app's audience (`/__config {audience}`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { configRoutes, createFakeControl, filterByQuery, serveFake } from "../control.ts";
import { sendFile } from "../files.ts";
import { readBody, sendJson } from "../http.ts";
import { RateLimiter } from "../rate-limit.ts";
import { callApi, methodOf } from "./api.ts";
import { clickRoutes } from "./clicks.ts";
import { GoogleApiError, refuseAsGoogle, sendGoogleError } from "./errors.ts";
import type { Framing } from "./events.ts";
import { certificatePem, newSigningKey, publicJwk } from "../signing-keys.ts";
import { TokenEndpoint } from "./oauth.ts";
import { type Delivered, peopleRoutes } from "./people.ts";
import { newServiceAccountKey } from "./service-account.ts";
import { World } from "./world.ts";

export const CERTS_PATH = "/service_accounts/v1/metadata/x509/chat@system.gserviceaccount.com";
export const JWKS_PATH = "/oauth2/v3/certs";
export const TOKEN_PATH = "/token";

interface Settings {
  audience: string;
  projectNumber: string;
  framing: Framing;
  endpoint?: string;
  readApproved: boolean;
  rateLimits: boolean;
}
const settingsPatchSchema = z.strictObject({
  audience: z.string().min(1).optional(),
  projectNumber: z.string().regex(/^\d+$/).optional(),
  framing: z.enum(["interaction", "add-on"]).optional(),
  endpoint: z.url().optional(),
  readApproved: z.boolean().optional(),
  rateLimits: z.boolean().optional(),
});

export interface GoogleChatFakeOptions {
  port: number;
  host?: string;
  /** The service account's JSON key; one is made when none is given. */
  serviceAccountJson?: string;
  settings?: Partial<Settings>;
}

export interface RunningGoogleChatFake {
  url: string;
  serviceAccountJson: string;
  close(): Promise<void>;
}

export async function startGoogleChatFake(opts: GoogleChatFakeOptions): Promise<RunningGoogleChatFake> {
  const initial: Settings = {
    audience: "123456789012",
    projectNumber: "123456789012",
    framing: "interaction",
    readApproved: false,
    rateLimits: true,
    ...opts.settings,
  };
  let settings = initial;
  let origin = "";
  const world = new World();
  const limits = new RateLimiter();
  const tokens = new TokenEndpoint(() => `${origin}${TOKEN_PATH}`);
  const serviceAccountJson = opts.serviceAccountJson ?? newServiceAccountKey().json;
  const account = JSON.parse(serviceAccountJson) as { client_email: string; private_key: string };
  tokens.register(account.client_email, account.private_key);
  const certKey = newSigningKey();
  const oidcKey = newSigningKey();
  const certificates = { [certKey.kid]: certificatePem(certKey, "chat@system.gserviceaccount.com") };
  const deliveries: Delivered[] = [];
  const people = { world, deliveries, settings: () => ({ ...settings, certKey, oidcKey }) };
  const control = createFakeControl<Record<string, unknown>>({
    name: "google-chat",
    failRoute: "spaces.messages.create",
    refuse: refuseAsGoogle,
    onReset() {
      settings = initial;
      world.reset();
      limits.reset();
      tokens.reset();
      deliveries.length = 0;
    },
  });
  control.addRoutes({
    ...configRoutes(
      () => settings,
      settingsPatchSchema,
      (patch) => (settings = { ...settings, ...patch }),
    ),
    ...peopleRoutes(people),
    ...clickRoutes(people),
    "GET /__service-account": () => JSON.parse(serviceAccountJson),
    "GET /__messages": (_body, url) =>
      filterByQuery(
        [...world.messages.values()].map((m) => ({ ...m, sender: m.sender.name })),
        url.searchParams,
      ),
    "GET /__deliveries": () => deliveries,
    "GET /__stats": () => ({ ratelimited: limits.refusals(), tokenExchanges: tokens.exchanges }),
  });

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === "GET" && url.pathname === CERTS_PATH) return sendJson(res, 200, certificates);
    if (req.method === "GET" && url.pathname === JWKS_PATH) return sendJson(res, 200, { keys: [publicJwk(oidcKey)] });
    const body = req.method === "GET" ? "" : await readBody(req);
    if (req.method === "POST" && url.pathname === TOKEN_PATH) {
      const answer = tokens.exchange(new URLSearchParams(body));
      return sendJson(res, answer.status, answer.body);
    }
    const method = methodOf(req.method ?? "GET", url.pathname);
    const admission = await control.admit(
      { route: method?.name ?? url.pathname, space: method?.args[0] ?? "", message: method?.args[1] ?? "" },
      res,
    );
    if (!admission) return;
    try {
      const answer = callApi(
        { world, tokens, limits, settings: () => settings, record: (call) => control.record(call) },
        {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          authorization: req.headers.authorization,
          body,
        },
      );
      admission.reply(() =>
        "file" in answer ? sendFile(res, answer.file) : sendJson(res, answer.status, answer.json),
      );
    } catch (err) {
      if (!(err instanceof GoogleApiError)) throw err;
      admission.reply(() => sendGoogleError(res, err));
    }
  }

  const server = await serveFake(control, opts, handle);
  origin = server.origin;
  return { url: server.origin, serviceAccountJson, close: server.close };
}
