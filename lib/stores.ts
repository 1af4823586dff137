/**
 * @module
 * Every store of one runtime, built once per Worker env on one Redis client and bound to REDIS_KEY_PREFIX: the
 * only place that hands the client and the prefix to anything. The flows (lib/ingest.ts, lib/jobs/) and the routes
 * read and write Redis only through these; a new key is its builder in lib/keys.ts, one method of the store it
 * belongs to here, and its row in docs/data-kept.md.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import type { Settings } from "./config.ts";
import { ConversationStore, type StoreOptions } from "./conversation/store.ts";
import { PlaceVisibilities } from "./conversation/visibilities.ts";
import { CatchUpProgressStore } from "./catch-up/progress.ts";
import { DigestSlotStore } from "./digests/slots.ts";
import { PersonalDigestStore } from "./digests/personal.ts";
import { AdminAttempts } from "./limits/admin-attempts.ts";
import { CallBudgets } from "./limits/api-budget.ts";
import { ForgetRequests } from "./limits/forget-rate.ts";
import { createLimiters, type Limiters } from "./limits/limiters.ts";
import { TokenBudgets } from "./limits/tenant-budget.ts";
import { ToldOnce } from "./limits/told-once.ts";
import { MessageEraser } from "./memory/erase-messages.ts";
import { FactStore } from "./memory/fact-store.ts";
import { ForgetMarks } from "./memory/forgotten.ts";
import { recallFor, type Recall } from "./memory/recall/index-for.ts";
import { RecallSweepMark } from "./memory/recall/sweep-cron.ts";
import { OptOuts } from "./opt-outs.ts";
import { PlaceSettingsStore } from "./places/settings.ts";
import type { Sealer } from "./secrets/seal.ts";
import { TenantKeys } from "./tenants/cleanup.ts";
import { InstallStates } from "./tenants/install-state.ts";
import { Installations } from "./tenants/installations.ts";
import { TokenLocks } from "./tenants/token.ts";
import { Approvals } from "./approvals/store.ts";
import { FeedbackStore } from "./feedback/store.ts";

const SECONDS_PER_DAY = 86_400;

export interface Stores {
  /** Conversations (record, fold, parents, load); on it `replies` (claim, draft, turn), `kept`, `backfill`. */
  store: ConversationStore;
  /** OAuth installations per tenant, their tokens sealed (lib/tenants/). */
  installations: Installations;
  /** A place's own settings (`/parley`). */
  placeSettings: PlaceSettingsStore;
  /** Who can read a place, as its platform said (an hour). */
  visibilities: PlaceVisibilities;
  /** What the bot learned about people, per tenant and where it was learned. */
  facts: FactStore;
  /** A person's messages leaving the conversations they spoke in ("forget me"). */
  eraser: MessageEraser;
  /** When people asked to be forgotten: what a read of a place leaves out. */
  forgotten: ForgetMarks;
  /** Who asked not to be messaged (SMS STOP). */
  optOuts: OptOuts;
  /** Confirm tools' calls waiting for a person's answer. */
  approvals: Approvals;
  /** 👍 / 👎 on the bot's answers: once per person and answer, counted per place. */
  feedback: FeedbackStore;
  /** A catch-up's pages read and notes, across its steps. */
  catchUps: CatchUpProgressStore;
  /** Each digest slot's progress and outcome (lib/digests/slots.ts). */
  digests: DigestSlotStore;
  /** People's own digests: their schedules, and each slot's sections (lib/digests/personal.ts). */
  personalDigests: PersonalDigestStore;
  /** Notices and log lines given once per window. */
  toldOnce: ToldOnce;
  /** Answers per person, judge calls, unprompted answers and rescues, in fixed windows. */
  limiters: Limiters;
  /** A platform's rate-tiered calls, shared by every job of a tenant. */
  callBudgets: CallBudgets;
  /** The daily token budgets of tenants and people. */
  budgets: TokenBudgets;
  /** "Forget me" requests per person per hour. */
  forgetRequests: ForgetRequests;
  /** The admin view's attempts per client. */
  adminAttempts: AdminAttempts;
  /** Pending install flows and their starts. */
  installStates: InstallStates;
  /** The lock one job holds while it refreshes a tenant's token. */
  tokenLocks: TokenLocks;
  /** Every key of a tenant, for the uninstall's cleanup. */
  tenantKeys: TenantKeys;
  /** Recall's Vector index and this bot's namespaces; null when recall is off. */
  recall: Recall | null;
  /** Where the cron's recall retention sweep stands. */
  recallSweep: RecallSweepMark;
}

/** `now` is read at each call (a test may move the runtime's clock after the stores are built). */
export function createStores(
  redis: Redis,
  settings: Settings,
  options: { ttlSeconds: StoreOptions["ttlSeconds"]; now: () => number; tokens: Sealer },
): Stores {
  const prefix = settings.REDIS_KEY_PREFIX;
  const { now } = options;
  return {
    store: new ConversationStore(redis, {
      prefix,
      ttlSeconds: options.ttlSeconds,
      maxMessages: settings.MAX_STORED_MESSAGES,
    }),
    installations: new Installations(redis, prefix, options.tokens),
    placeSettings: new PlaceSettingsStore(redis, prefix),
    visibilities: new PlaceVisibilities(redis, prefix),
    facts: new FactStore(redis, {
      prefix,
      perPerson: settings.FACTS_PER_PERSON,
      ttlSeconds: settings.FACTS_TTL_DAYS * SECONDS_PER_DAY,
    }),
    eraser: new MessageEraser(redis, prefix),
    forgotten: new ForgetMarks(redis, prefix),
    optOuts: new OptOuts(redis, prefix),
    approvals: new Approvals(redis, prefix),
    feedback: new FeedbackStore(redis, prefix),
    catchUps: new CatchUpProgressStore(redis, prefix),
    digests: new DigestSlotStore(redis, prefix),
    personalDigests: new PersonalDigestStore(redis, prefix),
    toldOnce: new ToldOnce(redis, prefix),
    limiters: createLimiters(redis, prefix, settings, now),
    callBudgets: new CallBudgets(redis, prefix, now),
    budgets: new TokenBudgets(redis, prefix, settings, now),
    forgetRequests: new ForgetRequests(redis, prefix),
    adminAttempts: new AdminAttempts(redis, prefix),
    installStates: new InstallStates(redis, prefix),
    tokenLocks: new TokenLocks(redis, prefix),
    tenantKeys: new TenantKeys(redis, prefix),
    recall: recallFor(settings, prefix),
    recallSweep: new RecallSweepMark(redis, prefix),
  };
}
