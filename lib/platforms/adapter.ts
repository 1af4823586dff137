/**
 * @module
 * The one contract every platform implements (lib/platforms/<name>/index.ts): read its own settings, check a
 * webhook's signature, turn its body into an InboundMessage (or a protocol answer, or nothing to do), say how the
 * core should treat its messages, and post answers. The core sees platforms only through this contract; the
 * Worker's routes and the job route get the adapters from lib/platforms/index.ts.
 *
 * Every call takes a context object first, holding the core's settings and the platform's own (`config`). What a
 * platform needs next is a new field of a context, never a new argument: per-tenant credentials come through
 * `ReplyContext.token()` (the settings' token; with OAuth installs, the token of the workspace). Whether an
 * earlier attempt's post landed is the platform's to answer inside `send`, from what the core's PartProgress tells
 * it (lib/platforms/parts.ts runs that loop). The text is the model's Markdown: the platform renders it into its
 * own markup (`format`, lib/platforms/answer-format.ts). A platform that can show an answer as it is written adds
 * `streaming` (lib/jobs/write.ts drives it), and one that can show that the bot is working adds `working`.
 */

import type { ApprovalParsed, ApprovalReply, WithApprovals } from "../approvals/capability.ts";
import type { WithPersonalDigests } from "../digests/capability.ts";
import type { WithFeedback } from "../feedback/capability.ts";
import type { WithStop } from "../stop/capability.ts";
import type { Settings } from "../config.ts";
import type { RefreshedToken } from "../installation.ts";
import type { Logger } from "../log.ts";
import type {
  BotIdentity,
  ConversationKey,
  InboundMessage,
  LogIds,
  ParentMessage,
  PartProgress,
  Platform,
  ReplyTarget,
  StreamState,
  Visibility,
} from "../message.ts";
import type { OptOuts } from "../opt-outs.ts";
import type { WithRescue } from "../rescue/capability.ts";
import type { SettingsRead } from "../settings-schema.ts";
import type * as z from "../zod.ts";
import type { AnswerFormat } from "./answer-format.ts";
import type { AnswerFor, AnswerStream, SignMark, WorkingSign } from "./answer-stream.ts";
import type { WithFiles } from "./file-fetch.ts";
import type { HistoryCapability } from "./history.ts";

/** A webhook delivery as the route received it. Signatures are computed over `rawBody`, so it is never re-encoded. */
export interface WebhookRequest {
  headers: Headers;
  /** The body decoded as UTF-8 text. */
  rawBody: string;
  /** The URL the request reached (a proxy may have changed its host; the path and query are the platform's). */
  url: string;
}

/** `reason`: a log line's code (`bad_signature`...). `unavailable`: the check could not be made (no signing keys). */
export type Verified = { ok: true } | { ok: false; reason: string; unavailable?: true };

/**
 * What a delivery is. `message`: one InboundMessage for the core, `botUserId` being the bot's id in it, plus what the
 * route needs to answer (`Extra`). `protocol`: the platform's own check (Slack url_verification, Discord PING),
 * answered with `response`. `ignored`: nothing to do (the bot's own post, an edit, an unsupported command). `invalid`:
 * the body is not what the platform sends (issues in words, never values). `removed`: the app was uninstalled from
 * `tenants` (their data is to be deleted, and the installation that served them); with `accessRevoked`, only these
 * tenants' access was taken from an installation that stays for others (a Slack org's workspaces): their data goes, the
 * installation stays. `left`: the bot was removed from one place. A message's `options` add to the platform's ingest
 * options for that message alone (a WhatsApp text's note); `installation`: the tenant whose installation serves it.
 */
/** Any platform's adapter, for what serves them all alike (the webhook route's middleware). */
// biome-ignore lint/suspicious/noExplicitAny: each adapter is checked against its own types where it is defined
export type AnyPlatformAdapter = PlatformAdapter<any, any, any>;

/** What a platform's parse adds to every parsed message when it adds nothing. */
export type NoExtra = Record<never, never>;

export type Parsed<Extra = NoExtra> =
  | ({
      kind: "message";
      message: InboundMessage;
      botUserId: string;
      options?: IngestOptions;
      installation?: string;
    } & ApprovalReply &
      Extra)
  | { kind: "removed"; tenants: string[]; accessRevoked?: true }
  | { kind: "left"; place: ConversationKey }
  | { kind: "protocol"; response: Response }
  | { kind: "ignored"; reason: string }
  | { kind: "invalid"; issues: string }
  | ApprovalParsed;

/** How the core treats every message of a platform. */
export interface IngestOptions {
  /** Wait before the job runs, and answer only the last message of a burst, so a burst gets one answer (SMS). */
  delaySeconds?: number;
  /** Answer even if the decider would not (platform rules, e.g. every SMS). */
  alwaysAnswer?: boolean;
  /**
   * Only tenants with an installation are served (OAuth installs): the ingest script checks that this tenant's
   * installation exists in its one round trip, and records nothing for a tenant without one.
   */
  installedTenant?: string;
  /** Platform lines for the system message (e.g. the SMS length to aim for); they travel with the job. */
  systemNotes?: string[];
  /** People can opt out of the bot's messages (SMS STOP): what they write is recorded, never answered. */
  optOuts?: boolean;
  /**
   * How log lines name this platform's places and people: `pseudonym` when its ids are personal data (phone
   * numbers), so that the core logs keyed pseudonyms of them (lib/log-ids.ts); absent, as they are.
   */
  logIds?: LogIds;
  /** The webhook puts a reply job's working sign up, after its acknowledgement (lib/jobs/working-sign.ts). */
  signByWebhook?: boolean;
  /**
   * The platform cannot be asked what was said in a place (Telegram's Bot API reads no history): the ingest script
   * keeps the channel's last BACKFILL_MESSAGES messages in its one round trip, and the platform's history read
   * (./history.ts) answers from them (`HistoryContext.kept`). "Forget me" clears them where it erases.
   */
  keepHistory?: boolean;
  /** People set the place's settings there (`/parley`, lib/places/): the ingest script reads them in its round trip. */
  placeSettings?: boolean;
  /** Every answer there carries 👍 / 👎, whatever the place's settings say (a platform's setting: TELEGRAM_FEEDBACK). */
  feedback?: boolean;
}

/** Which parent `fetchParent` looks for, and who the bot is (its mentions in the text become its name). */
export interface ParentQuery {
  place: ConversationKey;
  replyToId?: string;
  bot: BotIdentity;
}

/** What every adapter call gets: the core's settings and the platform's own. */
export interface AdapterContext<Config = unknown> {
  settings: Settings;
  config: Config;
  log: Logger;
  /** Milliseconds since the epoch. */
  now(): number;
  fetch: typeof fetch;
}

/** What the calls of a job get: the answer belongs to one tenant, and acts with that tenant's credentials. */
export interface ReplyContext<Config = unknown> extends AdapterContext<Config> {
  /** Slack team, Discord guild, Twilio account. */
  tenant: string;
  /** The API token that acts for `tenant`; throws GiveUp (code `not_configured`) saying what to set when none is. */
  token(): Promise<string>;
  /** People who asked not to be messaged; an adapter marks one when the platform refuses a send for that reason. */
  optOuts: OptOuts;
  /**
   * Takes one call of `method` from the tenant's budget of `perMinute`, shared by every job (a platform's rate
   * tiers count per workspace); false when it is spent, and the call is better left out or done otherwise.
   */
  callBudget(method: string, perMinute: number, mark?: SignMark): Promise<boolean>;
}

/** An answer shown as it is written (lib/jobs/write.ts). */
export interface StreamingCapability<Target, Config = unknown> {
  /** The most characters one message shows; the same as `send` puts in one part, so the first parts agree. */
  readonly maxChars: number;
  /** The least time between two visible updates of one message, ms. */
  readonly intervalMs: number;
  /** Opens a stream showing `text`; null when the place cannot stream now (the answer is then posted whole). */
  open(ctx: ReplyContext<Config>, target: Target, text: string, answer: AnswerFor): Promise<AnswerStream | null>;
  /** The stream an earlier attempt opened, to finish or close. */
  resume(ctx: ReplyContext<Config>, target: Target, state: StreamState, answer: AnswerFor): AnswerStream;
}

/** A platform installable per tenant through OAuth: each tenant's token comes from its stored installation. */
interface InstallSupport<Config> {
  /** True when the settings make the app installable (else the token comes from `tokenSetting`). */
  enabled(config: Config): boolean;
  /** A new bot token for a rotating installation; GiveUp when the refresh token can never work again. */
  refresh(ctx: AdapterContext<Config>, refreshToken: string): Promise<RefreshedToken>;
}

/** A platform's own settings, read from the Worker env beside the core's (lib/settings-schema.ts). */
export interface PlatformSettings<Config> {
  /** Reads them; an essential one missing or malformed turns the platform off (the route says which). */
  read(env: Record<string, unknown>): SettingsRead<Config>;
  /** True when they hold what the platform needs (its secrets are set). */
  enabled(config: Config): boolean;
  /** The setting holding the API token while credentials come from the settings (one workspace or account). */
  readonly tokenSetting: string;
  token(config: Config): string | undefined;
  /** How long its conversations live without a message, when not CONVERSATION_TIMEOUT_SECONDS. */
  conversationTtlSeconds?(config: Config): number;
}

/**
 * One platform. `Target` is its reply target (validated by `replyTargetSchema` wherever it arrives from outside),
 * `Extra` what its `parse` tells its own route beyond the message. Optional capabilities in files of their own: files
 * (./file-fetch.ts), history (./history.ts), and in lib/: rescue/, approvals/, feedback/, digests/ (capability.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds adapters of every platform's settings
export interface PlatformAdapter<Target extends ReplyTarget = ReplyTarget, Extra = NoExtra, Config = any>
  extends WithFiles<ReplyContext<Config>>,
    HistoryCapability<ReplyContext<Config>>,
    WithRescue<Target>,
    WithApprovals<Target, Config, ReplyContext<Config>>,
    WithFeedback<Target, ReplyContext<Config>>,
    WithPersonalDigests<Target, ReplyContext<Config>>,
    WithStop<ReplyContext<Config>> {
  readonly platform: Platform;
  readonly settings: PlatformSettings<Config>;
  /** Present when the platform can be installed in many tenants (Slack OAuth). */
  readonly installs?: InstallSupport<Config>;
  readonly replyTargetSchema: z.ZodMiniType<Target>;
  /** How its messages show the model's Markdown: `send` and `streaming` render every text they post with it. */
  readonly format: AnswerFormat<Target>;
  /** Checks the signature over the raw body, before anything of the body is read. */
  verify(ctx: AdapterContext<Config>, request: WebhookRequest): Promise<Verified>;
  parse(ctx: AdapterContext<Config>, request: WebhookRequest): Parsed<Extra>;
  ingestOptions(config: Config): IngestOptions;
  /**
   * Posts an answer, split into the platform's parts (the same text always splits alike); returns the ids of the
   * messages this call posted or found. `progress.from` skips the parts an earlier attempt posted; before posting
   * the part `progress.unsure` names, the platform checks whether that earlier post landed (its own way: a lookup,
   * or a post that the platform deduplicates); `progress.starting` and `progress.posted` hear of each part. Each
   * part carries `progress.answerId` and its index where the platform allows. Throws RetryLater (rate limited),
   * GiveUp (can never succeed) or any other error (retry).
   */
  send(ctx: ReplyContext<Config>, target: Target, text: string, progress: PartProgress): Promise<string[]>;
  /**
   * Who can read `place`, for messages whose delivery did not say (InboundMessage.visibility). Called by jobs only
   * (the core caches the answer for an hour); a platform that cannot tell answers `private`, and a throw counts as
   * `private` too: what is said in an unknown place never travels.
   */
  placeVisibility(ctx: ReplyContext<Config>, place: ConversationKey): Promise<Visibility>;
  /**
   * Optional: the message the conversation at `about.place` is about, for the prompt: the one `about.replyToId`
   * names (an InboundMessage's), or without it the place's own parent (a thread's starter message), asked only when
   * `placeParents` is set. Only ever a message of the place or of its thread's own channel, so that it is no more
   * visible than the place. null when there is none. Called by jobs only; the core keeps the answer with the
   * conversation (lib/jobs/parent.ts).
   */
  fetchParent?(ctx: ReplyContext<Config>, about: ParentQuery): Promise<ParentMessage | null>;
  /** A place can be about a message its messages do not name (a Discord thread's starter): asked once. */
  readonly placeParents?: boolean;
  /** Shows the answer as it is written, where the platform can. */
  readonly streaming?: StreamingCapability<Target, Config>;
  /**
   * Whose daily token budget an answer in `place` spends, when not its own tenant's: a DM that the platform makes a
   * tenant of its own (a Discord DM) spends its installation's (lib/limits/tenant-budget.ts).
   */
  budgetTenant?(place: ConversationKey, bot: BotIdentity): Pick<ConversationKey, "platform" | "tenant">;
  /** Shows at once that the bot is working; resolves once the sign is visible. */
  working?(ctx: ReplyContext<Config>, target: Target, answer: AnswerFor): Promise<WorkingSign>;
  /** Names the conversation at `target` from its question, after its first answer (a Slack assistant thread). */
  titleConversation?(ctx: ReplyContext<Config>, target: Target, question: string): Promise<void>;
}
