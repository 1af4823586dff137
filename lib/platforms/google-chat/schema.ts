/**
 * @module
 * zod schemas for what Google Chat posts to the app's endpoint, in both of its framings: the Chat API's interaction
 * event (`type`, `space`, `user`, `message` at the top: Schema$DeprecatedEvent of the Chat API's discovery document,
 * @googleapis/chat 51) and the Google Workspace add-on event object, which Chat apps built as add-ons get (the
 * framework Google's guides now build Chat apps on: one `chat` object holding exactly one payload, `messagePayload`,
 * `addedToSpacePayload`, `removedFromSpacePayload`, `appCommandPayload`, `buttonClickedPayload` or
 * `widgetUpdatedPayload`, and no `type`; developers.google.com/workspace/add-ons/chat/convert). Inside both, the
 * User, Space, Thread and Message resources are the Chat API's. Loose objects: Google adds fields; only the fields
 * read are checked, and resource names are held to their documented shapes, since they go into keys and logs.
 */
import * as z from "../../zod.ts";

/** `users/{user}`: digits for people and apps (the People API id), `users/app` for the calling app. */
const userName = z.string().check(z.regex(/^users\/[A-Za-z0-9_.@+-]{1,128}$/));
/** `spaces/{space}`: the system-assigned id, letters, digits, `_` and `-` (e.g. `spaces/AAAAAAAAAAA`). */
export const SPACE_NAME = /^spaces\/([A-Za-z0-9_-]{1,64})$/;
export const THREAD_NAME = /^spaces\/([A-Za-z0-9_-]{1,64})\/threads\/([A-Za-z0-9_.-]{1,128})$/;
export const MESSAGE_NAME = /^spaces\/([A-Za-z0-9_-]{1,64})\/messages\/([A-Za-z0-9_.-]{1,128})$/;

const userSchema = z.looseObject({
  name: userName,
  displayName: z.optional(z.string()),
  /** `HUMAN` or `BOT`. */
  type: z.optional(z.string()),
  domainId: z.optional(z.string()),
  isAnonymous: z.optional(z.boolean()),
});

const spaceSchema = z.looseObject({
  name: z.string().check(z.regex(SPACE_NAME)),
  /** `SPACE`, `GROUP_CHAT` or `DIRECT_MESSAGE`. */
  spaceType: z.optional(z.string()),
  /** Deprecated for `spaceType`: `ROOM` or `DM`. */
  type: z.optional(z.string()),
  singleUserBotDm: z.optional(z.boolean()),
  /** `THREADED_MESSAGES` (a space of threads), `GROUPED_MESSAGES`, `UNTHREADED_MESSAGES` (DMs, group chats). */
  spaceThreadingState: z.optional(z.string()),
  displayName: z.optional(z.string()),
});

const threadSchema = z.looseObject({ name: z.optional(z.string().check(z.regex(THREAD_NAME))) });

const annotationSchema = z.looseObject({
  /** `USER_MENTION`, `SLASH_COMMAND`, `RICH_LINK`, `CUSTOM_EMOJI`. */
  type: z.string(),
  startIndex: z.optional(z.number().check(z.int(), z.nonnegative())),
  length: z.optional(z.number().check(z.int(), z.nonnegative())),
  userMention: z.optional(z.looseObject({ user: userSchema, type: z.optional(z.string()) })),
  slashCommand: z.optional(
    z.looseObject({
      commandId: z.optional(z.string()),
      commandName: z.optional(z.string()),
      bot: z.optional(userSchema),
    }),
  ),
});

/** Each attachment is read on its own (./files.ts): an odd one is left out, never the message. */
export const attachmentSchema = z.looseObject({
  name: z.optional(z.string()),
  contentName: z.optional(z.string()),
  contentType: z.optional(z.string()),
  /** `UPLOADED_CONTENT` (downloadable with media.download) or `DRIVE_FILE` (a Drive file: the Drive API's). */
  source: z.optional(z.string()),
  attachmentDataRef: z.optional(z.looseObject({ resourceName: z.optional(z.string()) })),
});

export const messageSchema = z.looseObject({
  name: z.string().check(z.regex(MESSAGE_NAME)),
  sender: z.optional(userSchema),
  /** RFC 3339, to the microsecond. */
  createTime: z.optional(z.string()),
  text: z.optional(z.string()),
  /** The text with the app's mentions (and a slash command's name) taken out. */
  argumentText: z.optional(z.string()),
  annotations: z.optional(z.array(annotationSchema)),
  thread: z.optional(threadSchema),
  /** True for a reply inside a thread; false for a thread's first message, or any message of an unthreaded space. */
  threadReply: z.optional(z.boolean()),
  space: z.optional(spaceSchema),
  slashCommand: z.optional(z.looseObject({ commandId: z.optional(z.string()) })),
  attachment: z.optional(z.array(z.unknown())),
});

/** A Chat app command: the id it has in the Chat API configuration, and `SLASH_COMMAND` or `QUICK_COMMAND`. */
const appCommandMetadataSchema = z.looseObject({
  appCommandId: z.optional(z.number().check(z.int())),
  appCommandType: z.optional(z.string()),
});

/**
 * A card button's click (./click.ts): the function its `onClick.action` named and its `parameters`, in an
 * interaction event as `common` (a map) and `action` (the older list), in an add-on's as `commonEventObject`.
 */
export const clickCommonSchema = z.looseObject({
  invokedFunction: z.optional(z.string()),
  parameters: z.optional(z.record(z.string(), z.string())),
});
const clickActionSchema = z.looseObject({
  actionMethodName: z.optional(z.string()),
  parameters: z.optional(z.array(z.looseObject({ key: z.string(), value: z.optional(z.string()) }))),
});

/** The Chat API's interaction event. */
export const interactionEventSchema = z.looseObject({
  type: z.string(),
  eventTime: z.optional(z.string()),
  space: z.optional(spaceSchema),
  user: z.optional(userSchema),
  message: z.optional(messageSchema),
  thread: z.optional(threadSchema),
  appCommandMetadata: z.optional(appCommandMetadataSchema),
  action: z.optional(clickActionSchema),
  common: z.optional(clickCommonSchema),
  /** A click in a dialog (Parley opens none). */
  isDialogEvent: z.optional(z.boolean()),
});

const withSpace = z.looseObject({ space: z.optional(spaceSchema) });

/** The add-on event object's `chat`: who, when, and its one payload. */
export const addOnChatSchema = z.looseObject({
  user: z.optional(userSchema),
  space: z.optional(spaceSchema),
  eventTime: z.optional(z.string()),
  messagePayload: z.optional(z.looseObject({ message: messageSchema, space: z.optional(spaceSchema) })),
  addedToSpacePayload: z.optional(withSpace),
  removedFromSpacePayload: z.optional(withSpace),
  appCommandPayload: z.optional(
    z.looseObject({
      appCommandMetadata: z.optional(appCommandMetadataSchema),
      message: z.optional(messageSchema),
      space: z.optional(spaceSchema),
      thread: z.optional(threadSchema),
    }),
  ),
  buttonClickedPayload: z.optional(
    z.looseObject({
      message: messageSchema,
      space: z.optional(spaceSchema),
      isDialogEvent: z.optional(z.boolean()),
    }),
  ),
  widgetUpdatedPayload: z.optional(z.unknown()),
});

/** What tells the two framings apart: a `type` at the top, or a `chat` object. */
export const framingSchema = z.union([z.looseObject({ type: z.string() }), z.looseObject({ chat: z.looseObject({}) })]);

export type ChatUser = z.output<typeof userSchema>;
export type ChatSpace = z.output<typeof spaceSchema>;
export type ChatMessage = z.output<typeof messageSchema>;
