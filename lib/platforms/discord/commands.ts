/**
 * @module
 * The application commands, declared once: the interaction handler routes by these names and types, and
 * `npm run discord:register` registers exactly these, typed as discord-api-types' bulk overwrite body.
 */
import type {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  RESTPutAPIApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import { parleyCommand } from "./parley.ts";

/** Discord's application command types, each checked against discord-api-types' value. */
export const COMMAND_TYPE: {
  CHAT_INPUT: ApplicationCommandType.ChatInput;
  USER: ApplicationCommandType.User;
  MESSAGE: ApplicationCommandType.Message;
} = {
  CHAT_INPUT: 1,
  USER: 2,
  MESSAGE: 3,
};
/** Discord's option types for a string option and an integer one. */
const STRING_OPTION: ApplicationCommandOptionType.String = 3;
const INTEGER_OPTION: ApplicationCommandOptionType.Integer = 4;
/** Command names, context-menu names included, are at most 32 characters. */
const MAX_COMMAND_NAME = 32;

export const ASK_COMMAND = "ask";
export const QUESTION_OPTION = "question";
export const FORGET_COMMAND = "forget";
/** What /forget says on the person's behalf: the engine's whole-message "forget me" request. */
export const FORGET_REQUEST_TEXT = "forget me";
export const CATCHUP_COMMAND = "catchup";
export const HOURS_OPTION = "hours";
/** What /catchup says on the person's behalf: the engine's whole-message catch-up request (lib/catch-up/request.ts). */
export const catchUpRequestText = (hours?: number) =>
  hours ? `catch me up on the last ${hours} hours` : "catch me up";
/** The most /catchup offers; the bot caps it further at CATCHUP_MAX_HOURS. */
const MAX_CATCHUP_HOURS = 168;
/** Discord caps a message at 2,000 characters; a question longer than one message makes no sense. */
const MAX_QUESTION_LENGTH = 2_000;

/** "Ask Parley about this", the bot's name shortened when the whole would be over Discord's limit. */
export function askAboutCommandName(botName: string): string {
  const frame = ["Ask ", " about this"];
  const room = MAX_COMMAND_NAME - frame.join("").length;
  return `${frame[0]}${botName.trim().slice(0, room).trim()}${frame[1]}`;
}

export function discordCommands(botName: string): RESTPutAPIApplicationCommandsJSONBody {
  return [
    {
      name: ASK_COMMAND,
      type: COMMAND_TYPE.CHAT_INPUT,
      description: `Ask ${botName} a question in this channel's conversation`.slice(0, 100),
      options: [
        {
          name: QUESTION_OPTION,
          description: "What you want to know",
          type: STRING_OPTION,
          required: true,
          max_length: MAX_QUESTION_LENGTH,
        },
      ],
    },
    // Context-menu commands take no description: Discord rejects one.
    { name: askAboutCommandName(botName), type: COMMAND_TYPE.MESSAGE },
    {
      name: FORGET_COMMAND,
      type: COMMAND_TYPE.CHAT_INPUT,
      description: `Make ${botName} forget what it knows about you`.slice(0, 100),
    },
    parleyCommand(botName),
    {
      name: CATCHUP_COMMAND,
      type: COMMAND_TYPE.CHAT_INPUT,
      description: `${botName} sums up what was said here since your last message, with links`.slice(0, 100),
      options: [
        {
          name: HOURS_OPTION,
          description: "How many hours back to read instead",
          type: INTEGER_OPTION,
          required: false,
          min_value: 1,
          max_value: MAX_CATCHUP_HOURS,
        },
      ],
    },
  ];
}
