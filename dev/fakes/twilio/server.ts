/**
 * @module
 * The Twilio Messages API fake: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (form-encoded, HTTP Basic
 * `AccountSid:AuthToken`; `To`, `From` or `MessagingServiceSid`, `Body`, `StatusCallback`) answers 201 like
 * Twilio; `GET …/Messages.json` lists what was sent (./message-store.ts) and `GET …/Messages/{sid}.json` fetches
 * one. SMS and WhatsApp (`whatsapp:+…`) senders, Messaging Services (./senders.ts). Control routes: ../control.ts and
 * `GET|POST /__config` (./senders.ts settings), `POST /__whatsapp_inbound {from, to}` (the person wrote to that
 * WhatsApp sender: opens its 24-hour window), `POST /__opt_out {from, to, optedOut?}` (the person texted STOP to
 * that sender, or START with `optedOut: false`: Twilio then refuses to message them with 21610), `GET
 * /__messages?to=&from=&status=` (every message with its status). A Body over 1,600 characters is 21617.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readBody, sendJson, startHttpServer } from "../http.ts";
import { configRoutes, controlBody, createFakeControl, filterByQuery } from "../control.ts";
import { refuseAsTwilio, sendTwilioError, TWILIO_ERRORS, WHATSAPP_OUTSIDE_WINDOW } from "./errors.ts";
import { messageResource, TwilioMessageStore } from "./message-store.ts";
import {
  chooseSender,
  DEFAULT_TWILIO_SETTINGS,
  isWhatsApp,
  twilioSettingsPatchSchema,
  type TwilioSettings,
} from "./senders.ts";
import { FileStore } from "../files.ts";
import { serveTwilioMedia, twilioMediaRoutes } from "./media.ts";

const ACCOUNT_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages(?:\/(SM[0-9a-fA-F]{32}))?\.json$/;
const SMS_MAX_BODY_CHARS = 1_600;

export interface TwilioFakeOptions {
  port: number;
  host?: string;
  settings?: z.input<typeof twilioSettingsPatchSchema>;
}

export interface RunningTwilioFake {
  /** Base for TWILIO_API_BASE_URL, e.g. http://127.0.0.1:8093 */
  url: string;
  close(): Promise<void>;
}

/** One message the fake accepted, i.e. what the person's phone would show. Refused requests are not recorded. */
export interface RecordedTwilioMessage extends Record<string, unknown> {
  accountSid: string;
  to: string;
  /** The number (or `whatsapp:` sender) it went out from, a Messaging Service's choice included. */
  from: string;
  body: string;
  sid: string;
  messagingServiceSid?: string;
  statusCallback?: string;
}

export async function startTwilioFake(opts: TwilioFakeOptions): Promise<RunningTwilioFake> {
  const initial: TwilioSettings = {
    ...DEFAULT_TWILIO_SETTINGS,
    ...twilioSettingsPatchSchema.parse(opts.settings ?? {}),
  };
  let settings = initial;
  const store = new TwilioMessageStore();
  /** `whatsapp:person|whatsapp:sender` → when the person last wrote. */
  const lastInbound = new Map<string, number>();
  /** `person|sender` pairs where the person texted STOP to that sender: Twilio refuses to message them (21610). */
  const optedOut = new Set<string>();
  const files = new FileStore();
  let origin = "";
  const control = createFakeControl<RecordedTwilioMessage>({
    name: "twilio",
    failRoute: "messages.create",
    refuse: refuseAsTwilio,
    onReset() {
      settings = initial;
      store.reset();
      lastInbound.clear();
      optedOut.clear();
      files.reset();
    },
  });
  control.addRoutes(twilioMediaRoutes(files, () => origin));
  control.addRoutes({
    ...configRoutes(
      () => settings,
      twilioSettingsPatchSchema,
      (patch) => (settings = { ...settings, ...patch }),
    ),
    "POST /__whatsapp_inbound": (body) => {
      const { from, to } = controlBody(
        z.strictObject({ from: z.string().startsWith("whatsapp:"), to: z.string().startsWith("whatsapp:") }),
        body,
      );
      lastInbound.set(`${from}|${to}`, Date.now());
      return { ok: true };
    },
    "GET /__messages": (_body, url) => filterByQuery(store.all(), url.searchParams),
    "POST /__opt_out": (body) => {
      const {
        from,
        to,
        optedOut: out,
      } = controlBody(
        z.strictObject({ from: z.string().min(1), to: z.string().min(1), optedOut: z.boolean().default(true) }),
        body,
      );
      if (out) optedOut.add(`${from}|${to}`);
      else optedOut.delete(`${from}|${to}`);
      return { ok: true };
    },
  });

  function outsideWhatsAppWindow(to: string, from: string, now: number): boolean {
    if (!isWhatsApp(to) || settings.whatsappSessionWindowMs === null) return false;
    const last = lastInbound.get(`${to}|${from}`);
    return last === undefined || now - last > settings.whatsappSessionWindowMs;
  }

  async function createMessage(req: IncomingMessage, res: ServerResponse, accountSid: string): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    const to = form.get("To") ?? "";
    const body = form.get("Body") ?? "";
    const serviceSid = form.get("MessagingServiceSid") || undefined;
    const statusCallback = form.get("StatusCallback") || undefined;
    const admission = await control.admit(
      { route: "messages.create", accountSid, to, from: form.get("From") ?? serviceSid ?? "", body },
      res,
    );
    if (!admission) return;
    if (!to) return sendTwilioError(res, TWILIO_ERRORS.missingTo);
    const sender = chooseSender(settings, to, form.get("From") || undefined, serviceSid);
    if (!("from" in sender)) return sendTwilioError(res, sender);
    if (!body) return sendTwilioError(res, TWILIO_ERRORS.missingBody);
    if (body.length > (isWhatsApp(to) ? settings.whatsappMaxBodyChars : SMS_MAX_BODY_CHARS))
      return sendTwilioError(res, TWILIO_ERRORS.tooLong);
    if (optedOut.has(`${to}|${sender.from}`)) return sendTwilioError(res, TWILIO_ERRORS.optedOut);

    const now = Date.now();
    const sid = store.nextSid();
    const failed = outsideWhatsAppWindow(to, sender.from, now);
    const message = {
      sid,
      accountSid,
      to,
      from: sender.from,
      body,
      ...(serviceSid ? { messagingServiceSid: serviceSid } : {}),
      ...(statusCallback ? { statusCallback } : {}),
      createdAt: now,
      ...(failed
        ? {
            status: "failed" as const,
            errorCode: WHATSAPP_OUTSIDE_WINDOW.code,
            errorMessage: WHATSAPP_OUTSIDE_WINDOW.message,
          }
        : { status: "delivered" as const }),
    };
    store.add(message);
    control.record({
      accountSid,
      to,
      from: sender.from,
      body,
      sid,
      ...(serviceSid ? { messagingServiceSid: serviceSid } : {}),
      ...(statusCallback ? { statusCallback } : {}),
    });
    admission.send(201, messageResource(message, { justCreated: true }));
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      if (serveTwilioMedia(req, res, url, files, basicUser, origin)) return;
      const [, rawAccount, sid] = ACCOUNT_PATH.exec(url.pathname) ?? [];
      if (!rawAccount) return sendTwilioError(res, TWILIO_ERRORS.notFound);
      const accountSid = decodeURIComponent(rawAccount);
      if (basicUser(req) !== accountSid) return sendTwilioError(res, TWILIO_ERRORS.authentication);
      if (req.method === "POST" && !sid) return createMessage(req, res, accountSid);
      if (req.method !== "GET") return sendJson(res, 405, { code: 20004, message: "Method not allowed", status: 405 });
      const admission = await control.admit(
        { route: sid ? "messages.fetch" : "messages.list", accountSid, ...Object.fromEntries(url.searchParams) },
        res,
      );
      if (!admission) return;
      if (!sid) return admission.send(200, store.page(accountSid, url.searchParams));
      const found = store.find(accountSid, sid);
      if (!found) return sendTwilioError(res, TWILIO_ERRORS.notFound);
      admission.send(200, messageResource(found));
    },
  });
  origin = server.origin;
  return { url: server.origin, close: server.close };
}

/** The account sid of a Basic auth header with a non-empty token; undefined otherwise. */
function basicUser(req: IncomingMessage): string | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!encoded) return undefined;
  const [user, token] = Buffer.from(encoded, "base64").toString("utf8").split(":", 2);
  return user && token ? user : undefined;
}
