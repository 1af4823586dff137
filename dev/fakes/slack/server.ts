/**
 * @module
 * The Slack Web API fake: `POST /api/<method>` (form, or JSON where the method takes it) for the methods below, each
 * call authenticated by its token (the team it belongs to), passed through the scripted faults, checked for the
 * scope it needs among the team's granted ones (./methods.ts) and for the bot being in the channel, counted against
 * its rate-limit bucket, then answered like Slack; `GET /oauth/v2/authorize`, the install screen (./authorize.ts).
 * Control routes:
 * ../control.ts and ./control.ts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson, startHttpServer } from "../http.ts";
import { createFakeControl } from "../control.ts";
import type { FakeFault } from "../faults.ts";
import { RateLimiter } from "../rate-limit.ts";
import { SlackApiLog, type SlackApiCall } from "./api-log.ts";
import { AUTHORIZE_PATH, authorizePage } from "./authorize.ts";
import { AssistantThreads } from "./assistant.ts";
import { setStatus, setSuggestedPrompts, setTitle } from "./assistant-methods.ts";
import { postMessage, updateMessage } from "./chat.ts";
import { postEphemeral } from "./ephemeral.ts";
import { Ephemerals } from "./ephemerals.ts";
import type { RecordedSlackPost, SlackAnswer, SlackMethod, SlackState } from "./context.ts";
import { slackControlRoutes } from "./control.ts";
import { conversationsOpen, usersConversations } from "./conversations.ts";
import { conversationsHistory, conversationsReplies } from "./history.ts";
import { MessageStore } from "./messages.ts";
import { authTest, OAuthServer } from "./oauth.ts";
import { retryAfterSeconds, slackBucket } from "./rate-limits.ts";
import { addReaction, removeReaction } from "./reactions.ts";
import { missingScope, readsJson } from "./methods.ts";
import { conversationsInfo, usersInfo } from "./people.ts";
import { SlackPeople } from "./roles.ts";
import { readSlackRequest, type SlackParams } from "./request.ts";
import {
  DEFAULT_SLACK_SETTINGS,
  mergeSlackSettings,
  slackSettingsPatchSchema,
  type SlackSettings,
  type SlackSettingsPatch,
} from "./settings.ts";
import { actsAsOlderWorkspace, appendStream, startStream, stopStream, STREAMING_METHODS } from "./streaming.ts";
import { Workspaces } from "./workspaces.ts";
import { FileStore } from "../files.ts";
import { serveSlackFile, slackFileRoutes } from "./files.ts";

const API_PREFIX = "/api/";
const OAUTH_ACCESS = "oauth.v2.access";
const METHODS: Readonly<Record<string, SlackMethod>> = {
  "chat.postMessage": postMessage,
  "chat.update": updateMessage,
  "chat.postEphemeral": postEphemeral,
  "chat.startStream": startStream,
  "chat.appendStream": appendStream,
  "chat.stopStream": stopStream,
  "conversations.history": conversationsHistory,
  "conversations.replies": conversationsReplies,
  "conversations.info": conversationsInfo,
  "conversations.open": conversationsOpen,
  "users.conversations": usersConversations,
  "users.info": usersInfo,
  "reactions.add": addReaction,
  "reactions.remove": removeReaction,
  "assistant.threads.setStatus": setStatus,
  "assistant.threads.setSuggestedPrompts": setSuggestedPrompts,
  "assistant.threads.setTitle": setTitle,
  "auth.test": authTest,
};

export interface SlackFakeOptions {
  port: number;
  host?: string;
  /** Start settings (any subset); `POST /__reset` comes back to them. */
  settings?: SlackSettingsPatch;
}

export interface RunningSlackFake {
  /** Base for SLACK_API_BASE_URL, e.g. http://127.0.0.1:8091/api */
  url: string;
  close(): Promise<void>;
}

export async function startSlackFake(opts: SlackFakeOptions): Promise<RunningSlackFake> {
  const initial = mergeSlackSettings(DEFAULT_SLACK_SETTINGS, slackSettingsPatchSchema.parse(opts.settings ?? {}));
  let settings: SlackSettings = initial;
  const workspaces = new Workspaces(settings.staticTokens);
  const messages = new MessageStore();
  const assistant = new AssistantThreads();
  const people = new SlackPeople();
  const oauth = new OAuthServer(workspaces);
  const limiter = new RateLimiter();
  const apiLog = new SlackApiLog();
  const files = new FileStore();
  const ephemerals = new Ephemerals();
  let origin = "";
  const control = createFakeControl<RecordedSlackPost>({
    name: "slack",
    failRoute: "chat.postMessage",
    refuse: refuseAsSlack,
    onReset() {
      settings = initial;
      workspaces.reset(settings.staticTokens);
      for (const part of [messages, assistant, people, oauth, limiter, apiLog, files, ephemerals]) part.reset();
    },
  });
  const state: SlackState = {
    messages,
    workspaces,
    assistant,
    people,
    ephemerals,
    settings: () => settings,
    recordPost: (post) => control.record(post),
  };
  control.addRoutes(slackFileRoutes(files, () => origin));
  control.addRoutes(
    slackControlRoutes({
      state,
      oauth,
      limiter,
      apiLog,
      updateSettings(patch) {
        settings = mergeSlackSettings(settings, patch);
        if (patch.staticTokens) workspaces.setStaticTokens(patch.staticTokens);
        return settings;
      },
    }),
  );

  async function callMethod(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    const request = await readSlackRequest(req, readsJson(method));
    if (!request) return sendJson(res, 200, { ok: false, error: "invalid_json" });
    const fields = callFields(request.params);
    const log = (status: SlackApiCall["status"], team: string | undefined, answer?: SlackAnswer) =>
      apiLog.add({
        method,
        ...pick(fields, ["channel", "channel_id", "ts", "thread_ts", "limit", "include_all_metadata"]),
        ...(team ? { team } : {}),
        status,
        ...(answer ? { ok: answer.ok } : {}),
        ...(typeof answer?.error === "string" ? { error: answer.error } : {}),
      });

    if (method === OAUTH_ACCESS) {
      const admission = await control.admit({ route: method, ...fields }, res);
      if (!admission) return log("fault", undefined);
      const answer = oauth.access(request, settings.oauth);
      log(200, undefined, answer);
      return admission.send(200, answer);
    }
    const handler = METHODS[method];
    const unknownMethod = { ok: false, error: "unknown_method", req_method: method };
    if (!handler) return sendJson(res, 404, unknownMethod);
    const auth = workspaces.authenticate(request.token);
    if ("error" in auth) {
      const refused = { ok: false, error: auth.error };
      log(200, undefined, refused);
      return sendJson(res, 200, refused);
    }
    const team = auth.team.id;
    if (STREAMING_METHODS.has(method) && actsAsOlderWorkspace(settings, team)) {
      log(404, team, unknownMethod);
      return sendJson(res, 404, unknownMethod);
    }
    const admission = await control.admit({ route: method, ...fields, team }, res);
    if (!admission) return log("fault", team);
    const channel = fields.channel ?? fields.channel_id ?? "";
    const forbidden =
      missingScope(method, channel, auth.team.scope) ?? refusalOf(channel && state.workspaces.notMember(team, channel));
    if (forbidden) {
      log(200, team, forbidden);
      return admission.send(200, forbidden);
    }
    const now = Date.now();
    const bucket = slackBucket(settings, method, team, fields.channel ?? fields.channel_id ?? "");
    const verdict = bucket && limiter.hit(bucket.key, bucket.rule, method, now);
    if (verdict && !verdict.allowed) {
      const refused = { ok: false, error: "ratelimited" };
      log(429, team, refused);
      return admission.send(429, refused, { "Retry-After": retryAfterSeconds(verdict.resetAfterMs) });
    }
    const answer = handler({ team: auth.team, token: request.token!, params: request.params, now, state });
    log(200, team, answer);
    admission.send(200, answer);
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      if (serveSlackFile(req, res, url, files, workspaces, origin)) return;
      if (req.method === "GET" && url.pathname === AUTHORIZE_PATH)
        return authorizePage(res, url, oauth, settings.oauth);
      if (!url.pathname.startsWith(API_PREFIX)) return sendJson(res, 404, { error: "not_found" });
      if (req.method !== "POST") return sendJson(res, 405, { ok: false, error: "method_not_supported" });
      await callMethod(req, res, url.pathname.slice(API_PREFIX.length));
    },
  });
  origin = server.origin;
  return { url: `${server.origin}/api`, close: server.close };
}

const refusalOf = (error: string | undefined) => (error ? { ok: false, error } : undefined);

const pick = (fields: Record<string, string>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]!]));

/** The string arguments a fault rule can match (never the token or the client secret). */
function callFields(params: SlackParams): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key !== "token" && key !== "client_secret" && (typeof value === "string" || typeof value === "number"))
      fields[key] = String(value);
  }
  return fields;
}

/** A scripted refusal as Slack gives it: 429 `ratelimited` with Retry-After, a bare HTTP error, or `ok:false`. */
function refuseAsSlack(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit") {
    return sendJson(
      res,
      429,
      { ok: false, error: "ratelimited" },
      { "Retry-After": retryAfterSeconds((fault.retryAfter ?? 1) * 1000) },
    );
  }
  if (fault.fault === "refuse") {
    res.writeHead(fault.status, { "Content-Type": "text/plain" });
    return void res.end("upstream error");
  }
  if (fault.fault === "error") sendJson(res, fault.status ?? 200, { ok: false, error: fault.error });
}
