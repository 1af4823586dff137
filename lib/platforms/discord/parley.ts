/**
 * @module
 * Discord's `/parley`: a chat command with one subcommand per setting (`initiative on|off`, `eagerness 0-100`, `rescue
 * on|off [minutes]`, `feedback on|off`, `digest daily|weekly|off|status [day] [time] [zone]`, `status`, `forget`),
 * registered with `default_member_permissions` = Manage Channels so that Discord offers it to those who may manage the
 * channel (a server's admins can widen that in its Integrations settings: changes are then checked against the invoking
 * member's permissions in the channel, which come with the interaction). Read here into the same words Slack's
 * `/parley` takes (lib/places/command.ts reads them). Pure: no API call.
 */
import type {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import { InteractionResponseFlags, InteractionResponseType } from "discord-interactions";
import * as z from "../../zod.ts";
import { commandDataSchema, interactionSchema, snowflake } from "./schema.ts";

const PARLEY_COMMAND = "parley";
export const PARLEY_FORGET = "forget";
/** ./commands.ts's CHAT_INPUT (which lists this command: it cannot be imported from there without a circle). */
const CHAT_INPUT: ApplicationCommandType.ChatInput = 1;
const SUBCOMMAND: ApplicationCommandOptionType.Subcommand = 1;
const STRING_OPTION: ApplicationCommandOptionType.String = 3;
const INTEGER_OPTION: ApplicationCommandOptionType.Integer = 4;
const BOOLEAN_OPTION: ApplicationCommandOptionType.Boolean = 5;
/** Discord's permission bits: Manage Channels (1 << 4), and Administrator (1 << 3), which implies every other. */
const MANAGE_CHANNELS = 1n << 4n;
const ADMINISTRATOR = 1n << 3n;
/** Whether a member with `permissions` (an interaction's decimal bit set) may manage a channel's settings. */
export const mayManageChannel = (permissions: string): boolean =>
  (BigInt(permissions) & (MANAGE_CHANNELS | ADMINISTRATOR)) !== 0n;
/** Discord's interaction context of a server (GUILD): settings belong to a server's channels. */
const GUILD_CONTEXT = 0;

/** A switch's one option, `state:on|off`. */
const ON_OFF = {
  name: "state",
  type: STRING_OPTION,
  description: "on or off",
  required: true,
  choices: ["on", "off"].map((v) => ({ name: v, value: v })),
} as const;

export function parleyCommand(botName: string): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return {
    name: PARLEY_COMMAND,
    type: CHAT_INPUT,
    description: `${botName}'s settings for this channel`.slice(0, 100),
    default_member_permissions: String(MANAGE_CHANNELS),
    contexts: [GUILD_CONTEXT],
    options: [
      {
        name: "initiative",
        type: SUBCOMMAND,
        description: `Let ${botName} join in unprompted where it has something to add`.slice(0, 100),
        options: [ON_OFF],
      },
      {
        name: "eagerness",
        type: SUBCOMMAND,
        description: "How readily it joins in, 0 to 100",
        options: [
          {
            name: "value",
            type: INTEGER_OPTION,
            description: "0 (never) to 100 (whenever it may)",
            required: true,
            min_value: 0,
            max_value: 100,
          },
        ],
      },
      {
        name: "rescue",
        type: SUBCOMMAND,
        description: `Let ${botName} answer a question nobody picked up`.slice(0, 100),
        options: [
          ON_OFF,
          {
            name: "minutes",
            type: INTEGER_OPTION,
            description: "How long a question waits for a person first",
            required: false,
            min_value: 1,
            max_value: 120,
          },
        ],
      },
      {
        name: "feedback",
        type: SUBCOMMAND,
        description: "Put 👍 / 👎 buttons under each answer",
        options: [ON_OFF],
      },
      {
        name: "digest",
        type: SUBCOMMAND,
        description: `A summary of this channel from ${botName} every day or week`.slice(0, 100),
        options: [
          {
            name: "period",
            type: STRING_OPTION,
            description: "daily, weekly, off, or status",
            required: true,
            choices: ["daily", "weekly", "off", "status"].map((v) => ({ name: v, value: v })),
          },
          {
            name: "day",
            type: STRING_OPTION,
            description: "The weekday of a weekly digest",
            required: false,
            choices: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((v) => ({ name: v, value: v })),
          },
          { name: "time", type: STRING_OPTION, description: "HH:MM, e.g. 09:00", required: false, max_length: 5 },
          {
            name: "zone",
            type: STRING_OPTION,
            description: "A time zone, e.g. Europe/Berlin (UTC if none)",
            required: false,
            max_length: 64,
          },
          // Discord lists required options first: `me` comes last, and leads the words (OPTION_ORDER).
          {
            name: "me",
            type: BOOLEAN_OPTION,
            description: "Your own digest of the public channels you are in, in a DM",
            required: false,
          },
        ],
      },
      { name: "status", type: SUBCOMMAND, description: "Show this channel's settings" },
      { name: PARLEY_FORGET, type: SUBCOMMAND, description: `Make ${botName} forget what it knows about you` },
    ],
  };
}

const subcommandSchema = z.looseObject({
  name: z.string(),
  type: z.literal(SUBCOMMAND),
  options: z._default(
    z.array(z.looseObject({ name: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) })),
    [],
  ),
});

/** The order a subcommand's option values take in its words, whatever order Discord sends them in. */
const OPTION_ORDER = ["state", "value", "minutes", "me", "period", "day", "time", "zone"];

/** The subcommand's words (`eagerness 30`, `rescue on 15`), or null when the interaction is not `/parley`. */
export function parleyWords(data: unknown): string | null {
  const command = commandDataSchema.safeParse(data);
  if (!command.success || command.data.type !== CHAT_INPUT || command.data.name !== PARLEY_COMMAND) return null;
  const sub = subcommandSchema.safeParse(command.data.options?.[0]);
  if (!sub.success) return "";
  const options = [...sub.data.options].sort((a, b) => OPTION_ORDER.indexOf(a.name) - OPTION_ORDER.indexOf(b.name));
  // A switch (`me:True`) is its own name in the words; off, it is none.
  const words = options.flatMap((o) => (typeof o.value === "boolean" ? (o.value ? [o.name] : []) : [String(o.value)]));
  return [sub.data.name, ...words].join(" ");
}

const parleyInteractionSchema = z.object({
  guild_id: snowflake,
  channel_id: snowflake,
  member: z.looseObject({ permissions: z.string().check(z.regex(/^\d+$/)), user: z.looseObject({ id: snowflake }) }),
  application_id: snowflake,
});

/** Where `/parley` was used and whether its user may manage the channel there; null outside a server. */
export function parleyPlace(body: unknown): {
  guildId: string;
  channelId: string;
  mayManage: boolean;
  /** Who used it; and the application's id, which is its bot user's. */
  userId: string;
  applicationId: string;
} | null {
  const interaction = interactionSchema.safeParse(body);
  const parsed = interaction.success ? parleyInteractionSchema.safeParse(interaction.data) : undefined;
  if (!parsed?.success) return null;
  return {
    guildId: parsed.data.guild_id,
    channelId: parsed.data.channel_id,
    mayManage: mayManageChannel(parsed.data.member.permissions),
    userId: parsed.data.member.user.id,
    applicationId: parsed.data.application_id,
  };
}

/** The answer only the person who used the command sees. */
export function ephemeralAnswer(content: string) {
  return {
    type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE,
    data: { content, flags: InteractionResponseFlags.EPHEMERAL },
  };
}
