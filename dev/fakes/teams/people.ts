/**
 * @module
 * People's side of the fake's Teams, as control routes: `POST /__conversation {type}` makes a channel, a group chat
 * or a 1:1 chat with the bot in it; `POST /__message {conversation, from, text, mention?, thread?, claims?,
 * key?, deliver?}` writes a message there and answers it with the delivery Teams would send the bot, posted to the
 * bot's endpoint (`/__config {endpoint}`) unless `deliver: false` (null when Teams sends none:
 * in a channel or group chat, a message that does not @mention the bot, unless the app has resource-specific consent,
 * `/__config {rsc: true}`, or `rsc: true` for one message). `claims` overrides claims of the delivery's token, and
 * `key: "unendorsed"` signs it with a key the published set lists without the `msteams` endorsement, for tests of
 * what the bot must refuse. `POST /__files {name, type, base64 | png}` pastes a picture: the attachment to pass in
 * `/__message {attachments}`, served at its `contentUrl` to the bot's token only. `POST /__remove {conversation, from}`
 * takes the bot out of a conversation (the Connector refuses its replies there from then on) and answers with the two
 * deliveries Teams sends of that, posted to the bot's endpoint unless `deliver: false`.
 */
import { z } from "zod";
import { type ControlRoute, controlBody } from "../control.ts";
import { type FileStore, fileUploadSchema } from "../files.ts";
import type { FakeSigningKey } from "../signing-keys.ts";
import { activityToken, type Bot, connectorHeaders, messageActivity, removalActivities } from "./activities.ts";
import type { World } from "./world.ts";

const conversationSchema = z.strictObject({ type: z.enum(["personal", "groupChat", "channel"]) });
const messageSchema = z.strictObject({
  conversation: z.string().min(1),
  from: z.strictObject({ id: z.string().regex(/^29:/), name: z.string().min(1) }),
  text: z.string(),
  mention: z.boolean().optional(),
  /** The root of the channel's reply chain this message replies in; absent, a new post at the top. */
  thread: z.string().optional(),
  claims: z.record(z.string(), z.unknown()).optional(),
  key: z.enum(["endorsed", "unendorsed"]).optional(),
  /** The app holds resource-specific consent for this message's chat (every message reaches the bot). */
  rsc: z.boolean().optional(),
  /** False: the delivery is only handed back, never posted to the bot's endpoint. */
  deliver: z.boolean().optional(),
  /** Attachments as `POST /__files` answered them (pictures pasted into the message). */
  attachments: z.array(z.record(z.string(), z.unknown())).max(10).optional(),
});

const removalSchema = z.strictObject({
  conversation: z.string().min(1),
  from: z.strictObject({ id: z.string().regex(/^29:/) }),
  deliver: z.boolean().optional(),
});

interface Delivery {
  body: Record<string, unknown>;
  authorization: string;
  /** How the bot's endpoint answered it, when it was posted there (0: no answer). */
  status?: number;
}

export interface PeopleDeps {
  world: World;
  bot: () => Bot;
  serviceUrl: () => string;
  rsc: () => boolean;
  /** The bot's messaging endpoint (`/__config {endpoint}`): the Connector posts its activities there. */
  endpoint: () => string | undefined;
  keys: { endorsed: FakeSigningKey; unendorsed: FakeSigningKey };
  files: FileStore;
}

export function peopleRoutes(deps: PeopleDeps): Record<string, ControlRoute> {
  return {
    "POST /__files": (body) => {
      const file = deps.files.put("", (n) => `0-eus-d${n}-fake`, controlBody(fileUploadSchema, body));
      return {
        contentType: file.type,
        contentUrl: `${deps.serviceUrl()}v3/attachments/${file.id}/views/original`,
        name: file.name,
      };
    },
    "POST /__conversation": (body) => {
      const made = deps.world.newConversation(controlBody(conversationSchema, body).type);
      return { id: made.id, tenantId: made.tenantId, ...(made.teamId ? { teamId: made.teamId } : {}) };
    },
    "POST /__message": async (body) => {
      const said = controlBody(messageSchema, body);
      const conversation = deps.world.conversations.get(said.conversation);
      if (!conversation) throw new Error(`no conversation ${said.conversation}`);
      const id = deps.world.nextId();
      const root = conversation.type === "channel" ? (said.thread ?? id) : undefined;
      if (said.thread && !deps.world.activity(conversation.id, said.thread)) throw new Error("no such reply chain");
      const message = deps.world.add({
        id,
        conversation: conversation.id,
        ...(root ? { root } : {}),
        from: said.from,
        text: said.text,
        byBot: false,
        revisions: [],
      });
      const mentioned = said.mention ?? false;
      const heard =
        !conversation.removed && (conversation.type === "personal" || mentioned || (said.rsc ?? deps.rsc()));
      if (!heard) return { id, root, delivery: null };
      const bot = deps.bot();
      const activity = {
        ...messageActivity(conversation, message, { bot, serviceUrl: deps.serviceUrl(), mentioned }),
        ...(said.attachments ? { attachments: said.attachments } : {}),
      };
      const key = said.key === "unendorsed" ? deps.keys.unendorsed : deps.keys.endorsed;
      const token = activityToken(key, { appId: bot.appId, serviceUrl: deps.serviceUrl() }, said.claims);
      const delivery = await send(deps, { body: activity, authorization: `Bearer ${token}` }, said.deliver);
      return { id, root, delivery };
    },
    "POST /__remove": async (body) => {
      const removal = controlBody(removalSchema, body);
      const conversation = deps.world.conversations.get(removal.conversation);
      if (!conversation) throw new Error(`no conversation ${removal.conversation}`);
      conversation.removed = true;
      const bot = deps.bot();
      const activities = removalActivities(conversation, removal.from, {
        bot,
        serviceUrl: deps.serviceUrl(),
        id: () => deps.world.nextId(),
      });
      const deliveries: Delivery[] = [];
      for (const activity of activities) {
        const token = activityToken(deps.keys.endorsed, { appId: bot.appId, serviceUrl: deps.serviceUrl() });
        deliveries.push(await send(deps, { body: activity, authorization: `Bearer ${token}` }, removal.deliver));
      }
      return { deliveries };
    },
  };
}

/** The delivery, posted to the bot's endpoint when there is one and `deliver` is not false. */
async function send(deps: PeopleDeps, delivery: Delivery, deliver: boolean | undefined): Promise<Delivery> {
  const endpoint = deps.endpoint();
  if (endpoint && deliver !== false) delivery.status = await post(endpoint, delivery);
  return delivery;
}

/** Posts the activity as the Bot Connector does; the endpoint's status, or 0 when it did not answer. */
async function post(endpoint: string, delivery: Delivery): Promise<number> {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: connectorHeaders(delivery.authorization),
    body: JSON.stringify(delivery.body),
  }).catch(() => undefined);
  await res?.body?.cancel();
  return res?.status ?? 0;
}
