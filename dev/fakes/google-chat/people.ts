/**
 * @module
 * What people do in the Google Chat fake, as control routes (tests, the benches): make a space, group chat or DM
 * with the app in it, write a message (with an @mention of the app, a slash command, files), add the app to a space
 * or remove it. Chat sends the app what it would get (a message in a space only when it @mentions the app or
 * invokes its command; every message of a DM; nothing once the app is out), in the app's framing, with a bearer
 * token the fake signs for the app's audience. Each answers the delivery (`body`, `authorization`) and, when the
 * fake has the app's endpoint (`/__config {endpoint}`) and `deliver` is not false, how the endpoint answered it.
 */
import { z } from "zod";
import { controlBody, ControlError, type ControlRoute } from "../control.ts";
import { fileUploadSchema } from "../files.ts";
import { type EventKind, eventBody, eventToken, type EventSigning, type Framing, postEvent } from "./events.ts";
import { FAKE_APP_USER, type FakeSpace, type FakeUser, type World } from "./world.ts";

const userSchema = z.strictObject({
  name: z.string().regex(/^users\/\d{1,30}$/),
  displayName: z.string().min(1),
  type: z.enum(["HUMAN", "BOT"]).default("HUMAN"),
  domainId: z.string().optional(),
});

const spaceSchema = z.strictObject({
  name: z
    .string()
    .regex(/^spaces\/[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  spaceType: z.enum(["SPACE", "GROUP_CHAT", "DIRECT_MESSAGE"]).default("SPACE"),
  displayName: z.string().optional(),
});

const deliverySchema = {
  /** Overrides the fake's framing and audience for this delivery (a forged or misdirected token). */
  framing: z.enum(["interaction", "add-on"]).optional(),
  audience: z.string().optional(),
  deliver: z.boolean().default(true),
};

const messageSchema = z.strictObject({
  space: z.string(),
  from: userSchema,
  text: z.string().default(""),
  /** A reply in this thread (a thread of the space); otherwise a new thread at the top. */
  thread: z.string().optional(),
  /** The message starts with an @mention of the app. */
  mention: z.boolean().default(false),
  command: z.strictObject({ id: z.number().int().positive(), name: z.string().regex(/^\/\w+$/) }).optional(),
  /** Attachment objects from POST /__files. */
  attachment: z.array(z.unknown()).default([]),
  ...deliverySchema,
});

const membershipSchema = z.strictObject({ space: z.string(), by: userSchema, ...deliverySchema });

export interface Delivered {
  body: unknown;
  authorization: string;
  status?: number;
}

export interface PeopleDeps {
  world: World;
  settings: () => { framing: Framing; endpoint?: string } & EventSigning;
  deliveries: Delivered[];
}

export function peopleRoutes(deps: PeopleDeps): Record<string, ControlRoute> {
  const { world } = deps;
  const spaceOf = (name: string): FakeSpace => {
    const space = world.spaces.get(name);
    if (!space) throw new ControlError(`no space ${name}: make it with POST /__space first`);
    return space;
  };
  const send = async (
    space: FakeSpace,
    user: FakeUser,
    event: EventKind,
    opts: z.infer<z.ZodObject<typeof deliverySchema>>,
  ): Promise<Delivered> => {
    const s = deps.settings();
    const framing = opts.framing ?? s.framing;
    const token = eventToken({ ...s, audience: opts.audience ?? s.audience }, framing);
    const delivered: Delivered = {
      body: eventBody(framing, event, space, user, token),
      authorization: `Bearer ${token}`,
    };
    if (opts.deliver && s.endpoint)
      delivered.status = (await postEvent(s.endpoint, delivered.authorization, delivered.body)).status;
    deps.deliveries.push(delivered);
    return delivered;
  };
  return {
    "POST /__space": (body) => {
      const spec = controlBody(spaceSchema, body);
      const dm = spec.spaceType === "DIRECT_MESSAGE";
      const space = world.addSpace({
        ...spec,
        spaceThreadingState: spec.spaceType === "SPACE" ? "THREADED_MESSAGES" : "UNTHREADED_MESSAGES",
        ...(dm ? {} : { displayName: spec.displayName ?? "A space" }),
      });
      return { name: space.name, spaceType: space.spaceType };
    },
    "POST /__message": async (body) => {
      const m = controlBody(messageSchema, body);
      const space = spaceOf(m.space);
      if (m.thread && !world.inSpace(space.name, m.thread).length) throw new ControlError(`no thread ${m.thread}`);
      const mention = m.mention ? `@${FAKE_APP_USER.displayName}` : "";
      const lead = m.command?.name ?? mention;
      const text = lead ? `${lead}${m.text ? ` ${m.text}` : ""}` : m.text;
      const annotations = [
        ...(m.mention && !m.command
          ? [
              {
                type: "USER_MENTION",
                startIndex: 0,
                length: mention.length,
                userMention: { user: FAKE_APP_USER, type: "MENTION" },
              },
            ]
          : []),
        ...(m.command
          ? [
              {
                type: "SLASH_COMMAND",
                startIndex: 0,
                length: m.command.name.length,
                slashCommand: {
                  bot: FAKE_APP_USER,
                  type: "INVOKE",
                  commandName: m.command.name,
                  commandId: String(m.command.id),
                },
              },
            ]
          : []),
      ];
      const threaded = space.spaceThreadingState === "THREADED_MESSAGES";
      const message = world.add({
        space: space.name,
        thread: (threaded && m.thread) || world.newThread(space),
        threadReply: Boolean(threaded && m.thread),
        sender: m.from,
        text,
        byApp: false,
        annotations,
        attachment: m.attachment,
      });
      const forApp = space.appMember && (space.spaceType === "DIRECT_MESSAGE" || m.mention || m.command);
      if (!forApp) return { message: message.name, thread: message.thread, delivery: null };
      const framing = m.framing ?? deps.settings().framing;
      const event: EventKind = {
        kind: "message",
        message,
        argumentText: m.text,
        ...(m.command && framing === "add-on" ? { appCommandId: m.command.id } : {}),
      };
      const delivery = await send(space, m.from, event, m);
      return { message: message.name, thread: message.thread, delivery };
    },
    "POST /__remove": async (body) => {
      const m = controlBody(membershipSchema, body);
      const space = spaceOf(m.space);
      if (!space.appMember) throw new ControlError(`the app is not in ${space.name}`);
      space.appMember = false;
      return { delivery: await send(space, m.by, { kind: "removed" }, m) };
    },
    "POST /__add": async (body) => {
      const m = controlBody(membershipSchema, body);
      const space = spaceOf(m.space);
      space.appMember = true;
      return { delivery: await send(space, m.by, { kind: "added" }, m) };
    },
    "POST /__files": (body) => {
      const upload = controlBody(fileUploadSchema, body);
      const file = world.files.put("", (n) => `ClxmYWtlLWF0dGFjaG1lbnQt${n}`, upload);
      return {
        name: `spaces/FAKE/messages/FAKE/attachments/${file.id}`,
        contentName: file.name,
        contentType: file.type,
        source: "UPLOADED_CONTENT",
        attachmentDataRef: { resourceName: file.id },
        downloadUri: `https://chat.google.com/api/get_attachment_url?url_type=DOWNLOAD_URL&attachment_token=${file.id}`,
      };
    },
  };
}
