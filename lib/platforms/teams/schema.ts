/**
 * @module
 * The Bot Framework activities Teams sends a bot, as far as Parley reads them (the Bot Connector's Activity schema,
 * "Bot Framework REST API reference: Activity object", and Teams' additions in "Conversation basics" and "Channel and
 * group chat conversations with a bot"): its type, who wrote it, the conversation (`personal`, `groupChat`, or a
 * `channel`, whose id names the thread's root with `;messageid=`), the bot as recipient, the text with its mention
 * entities, the files, and Teams' `channelData` (the tenant, the team and channel). Loose objects: the Connector adds
 * fields freely, and a field Parley does not read must never refuse a delivery.
 */
import * as z from "../../zod.ts";

const account = z.looseObject({
  id: z.string().check(z.minLength(1)),
  name: z.optional(z.string()),
  /** The person's Microsoft Entra object id (absent for bots). */
  aadObjectId: z.optional(z.string()),
  role: z.optional(z.string()),
});

const CONVERSATION_TYPES = ["personal", "groupChat", "channel"] as const;

const conversation = z.looseObject({
  id: z.string().check(z.minLength(1)),
  conversationType: z.optional(z.enum(CONVERSATION_TYPES)),
  isGroup: z.optional(z.boolean()),
  tenantId: z.optional(z.string()),
  name: z.optional(z.string()),
});

/** `mention` entities name who the text's `<at>…</at>` spans are; other entities (`clientInfo`) are not read. */
const entity = z.looseObject({
  type: z.string(),
  mentioned: z.optional(account),
  text: z.optional(z.string()),
});

const attachment = z.looseObject({
  contentType: z.string(),
  contentUrl: z.optional(z.string()),
  name: z.optional(z.string()),
  content: z.optional(z.unknown()),
});

const channelData = z.looseObject({
  tenant: z.optional(z.looseObject({ id: z.string() })),
  team: z.optional(z.looseObject({ id: z.string(), name: z.optional(z.string()) })),
  channel: z.optional(z.looseObject({ id: z.string(), name: z.optional(z.string()) })),
  eventType: z.optional(z.string()),
});

/** Every activity: the envelope Parley checks before reading what kind it is. */
export const activitySchema = z.looseObject({
  type: z.string().check(z.minLength(1)),
  id: z.optional(z.string()),
  timestamp: z.optional(z.string()),
  serviceUrl: z.url({ protocol: /^https?$/ }),
  channelId: z.string(),
  from: z.optional(account),
  conversation,
  recipient: account,
  text: z.optional(z.string()),
  textFormat: z.optional(z.string()),
  replyToId: z.optional(z.string()),
  entities: z.optional(z.array(entity)),
  attachments: z.optional(z.array(attachment)),
  channelData: z.optional(channelData),
  /** invoke: what is invoked (`adaptiveCard/action`, ./card-action.ts), with its `value`. */
  name: z.optional(z.string()),
  value: z.optional(z.unknown()),
  /** installationUpdate: `add`, `remove` (and their `-upgrade` forms). */
  action: z.optional(z.string()),
  /** conversationUpdate: who joined or left the conversation (the bot, when it is added or removed). */
  membersAdded: z.optional(z.array(account)),
  membersRemoved: z.optional(z.array(account)),
});
export type TeamsActivity = z.output<typeof activitySchema>;

/** A `message` activity: it has an id and an author. */
export const messageActivitySchema = z.looseObject({
  ...activitySchema.shape,
  id: z.string().check(z.minLength(1)),
  from: account,
});
export type TeamsMessageActivity = z.output<typeof messageActivitySchema>;
