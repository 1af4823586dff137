/**
 * @module
 * The interactions the Discord fake knows, as Discord knows them: it sent the interaction, then read the app's HTTP
 * answer. Whoever plays Discord tells the fake both (`POST /__interactions`, ./interaction-answers.ts); the webhook
 * routes then refuse what Discord refuses (discord/discord-api-docs, interactions/receiving-and-responding.mdx,
 * topics/opcodes-and-status-codes.mdx; the codes as Discord answers them, discord-api-docs#6851 and client
 * libraries' reports): a token Discord never issued, or one whose interaction was not acknowledged (no answer of a
 * callback type, or one after the 3 seconds, which invalidates the token) → 404 10015 Unknown Webhook, and reading
 * `@original` then → 404 10008 Unknown Message; a token older than 15 minutes → 401 50027 Invalid Webhook Token.
 * A press of a component (type 3) may be answered with an update of its message (6 DEFERRED_UPDATE_MESSAGE, 7
 * UPDATE_MESSAGE), whose `@original` is then that message; an answer with components Discord refuses
 * (./components.ts) acknowledges nothing. A test moves an interaction's clock (`POST /__interactions/age {token,
 * ms}`: as if Discord had sent it `ms` earlier), so that suites sharing the fake never age each other's tokens.
 */
import { z } from "zod";
import { componentsRefusal } from "./components.ts";

/** Interaction tokens are valid for 15 minutes. */
const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60 * 1000;
/** The initial response must come within 3 seconds, or the token is invalidated. */
export const INITIAL_RESPONSE_MS = 3_000;
/** PONG (1) answers a PING and opens nothing; every other callback type acknowledges the interaction. */
const PONG = 1;
/** DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: "thinking…" until the app edits `@original`. */
const DEFERRED_MESSAGE = 5;
/** DEFERRED_UPDATE_MESSAGE and UPDATE_MESSAGE: valid only for a component's press, on the message it is on. */
const UPDATES: ReadonlySet<unknown> = new Set([6, 7]);
/** The message flag of a deferred response's "thinking…" message, gone once the app edits it. */
export const LOADING_FLAG = 128;

const WEBHOOK_ERROR = {
  unknownWebhook: { status: 404, message: "Unknown Webhook", code: 10015 },
  unknownMessage: { status: 404, message: "Unknown Message", code: 10008 },
  invalidToken: { status: 401, message: "Invalid Webhook Token", code: 50027 },
} as const;
export type WebhookError = (typeof WEBHOOK_ERROR)[keyof typeof WEBHOOK_ERROR];

export const interactionReportSchema = z.strictObject({
  id: z.string().regex(/^\d+$/),
  application_id: z.string().regex(/^\d+$/),
  token: z.string().min(1),
  /** Where it was used: the channel its original message goes to (absent for a PING). */
  channel_id: z.string().regex(/^\d+$/).optional(),
  /** A component's press (type 3): the message the component is on, its `@original`. */
  message_id: z.string().regex(/^\d+$/).optional(),
  /** What the app answered: its HTTP status and JSON body (null when it was not JSON). */
  answer: z.strictObject({ status: z.number().int(), body: z.unknown() }),
  /** How long the app took to answer. */
  answered_after_ms: z.number().min(0),
});
export type InteractionReport = z.output<typeof interactionReportSchema>;

interface KnownInteraction {
  applicationId: string;
  /** When Discord sent it (epoch ms). */
  sentAt: number;
  /** The callback type that acknowledged it, if one did in time. */
  acknowledgedWith?: number;
}

/**
 * The original message an acknowledgement makes: the answer's message, or "thinking…" for a deferral; for a press
 * answered with an update (6, 7), the pressed message, with what a type 7 changes of it (`update`).
 */
export interface OriginalMessage {
  channelId: string;
  content: string;
  flags: number;
  components?: unknown[];
  pressed?: { messageId: string; update?: { content?: string; components?: unknown[] } };
}

export const interactionAgeSchema = z.strictObject({ token: z.string().min(1), ms: z.number().int().min(0) });

export class DiscordInteractions {
  #known = new Map<string, KnownInteraction>();

  /** Moves the interaction's clock on by `ms`; false for a token the fake does not know. */
  age(token: string, ms: number): boolean {
    const known = this.#known.get(token);
    if (known) known.sentAt -= ms;
    return known !== undefined;
  }

  /** Records an interaction and the app's answer; returns the original message it made, if it acknowledged it. */
  report(r: InteractionReport): OriginalMessage | undefined {
    if (this.#known.get(r.token)?.acknowledgedWith !== undefined) return undefined; // the first answer counts
    const type = (r.answer.body as { type?: unknown } | null)?.type;
    const data = (r.answer.body as { data?: { content?: unknown; flags?: unknown; components?: unknown } } | null)
      ?.data;
    // An answer Discord cannot carry out (an update with no pressed message, components it refuses) fails the press.
    const acknowledged =
      r.answer.status === 200 &&
      typeof type === "number" &&
      type !== PONG &&
      (!UPDATES.has(type) || r.message_id !== undefined) &&
      componentsRefusal(data?.components) === undefined &&
      r.answered_after_ms <= INITIAL_RESPONSE_MS;
    this.#known.set(r.token, {
      applicationId: r.application_id,
      sentAt: Date.now() - r.answered_after_ms,
      ...(acknowledged ? { acknowledgedWith: type } : {}),
    });
    if (!acknowledged) return undefined;
    const channelId = r.channel_id ?? "0";
    if (type === DEFERRED_MESSAGE) return { channelId, content: "", flags: LOADING_FLAG };
    const content = typeof data?.content === "string" ? data.content : undefined;
    const components = Array.isArray(data?.components) ? data.components : undefined;
    if (UPDATES.has(type)) {
      const update =
        type === 7
          ? { ...(content !== undefined ? { content } : {}), ...(components ? { components } : {}) }
          : undefined;
      return { channelId, content: "", flags: 0, pressed: { messageId: r.message_id!, ...(update ? { update } : {}) } };
    }
    return {
      channelId,
      content: content ?? "",
      flags: typeof data?.flags === "number" ? data.flags : 0,
      ...(components ? { components } : {}),
    };
  }

  /** Why Discord refuses a webhook call with this token; undefined when it takes it. `reading`: a GET of a message. */
  refusal(applicationId: string, token: string, reading: boolean): WebhookError | undefined {
    const known = this.#known.get(token);
    if (!known || known.applicationId !== applicationId) return WEBHOOK_ERROR.unknownWebhook;
    if (Date.now() - known.sentAt >= INTERACTION_TOKEN_LIFETIME_MS) return WEBHOOK_ERROR.invalidToken;
    if (known.acknowledgedWith === undefined)
      return reading ? WEBHOOK_ERROR.unknownMessage : WEBHOOK_ERROR.unknownWebhook;
    return undefined;
  }

  reset(): void {
    this.#known.clear();
  }
}
