/**
 * @module
 * What a REST request may ask Redis to do: the JSON shapes of commands, their conversion to Redis arguments,
 * and the commands Upstash does not serve over REST (they would block or take over a shared connection).
 */
import { z } from "zod";

const ArgumentSchema = z.union([z.string(), z.number(), z.boolean()]);
/** One command, e.g. `["set", "k", "v", "ex", 10]`. */
export const CommandSchema = z.array(ArgumentSchema).min(1);
/** The body of `/pipeline` and `/multi-exec`. */
export const CommandListSchema = z.array(CommandSchema).min(1);

export type RestCommand = z.infer<typeof CommandSchema>;

const REFUSED_COMMANDS: ReadonlyMap<string, string> = new Map([
  ...["blpop", "brpop", "brpoplpush", "blmove", "blmpop", "bzpopmin", "bzpopmax", "bzmpop", "wait", "waitaof"].map(
    (name) => [name, "blocking commands are not supported over REST"] as const,
  ),
  ...["multi", "exec", "discard", "watch", "unwatch"].map(
    (name) => [name, "use the /multi-exec endpoint for transactions; WATCH is not supported over REST"] as const,
  ),
  ...[
    "subscribe",
    "psubscribe",
    "ssubscribe",
    "unsubscribe",
    "punsubscribe",
    "sunsubscribe",
    "monitor",
    "sync",
    "psync",
  ].map((name) => [name, "commands that stream replies are not supported over REST"] as const),
  ...["auth", "hello", "select", "client", "quit", "reset", "readonly", "readwrite"].map(
    (name) => [name, "connection commands other than PING and ECHO are not supported over REST"] as const,
  ),
]);

/** XREAD/XREADGROUP block only with this option, which comes before the STREAMS keyword. */
const BLOCK_OPTION = "block";
const STREAMS_KEYWORD = "streams";

/** Why Upstash would refuse this command over REST, or undefined when it may run. */
export function refusalReason(command: RestCommand): string | undefined {
  const name = String(command[0]).toLowerCase();
  const reason = REFUSED_COMMANDS.get(name);
  if (reason) return `ERR Command is not allowed: ${name} (${reason})`;
  if ((name === "xread" || name === "xreadgroup") && hasBlockOption(command)) {
    return `ERR Command is not allowed: ${name} with BLOCK (blocking commands are not supported over REST)`;
  }
  return undefined;
}

function hasBlockOption(command: RestCommand): boolean {
  const options = command.map((a) => String(a).toLowerCase());
  const streamsAt = options.indexOf(STREAMS_KEYWORD);
  return options.slice(1, streamsAt < 0 ? undefined : streamsAt).includes(BLOCK_OPTION);
}

/** Redis arguments: every JSON value in its string form, as UTF-8 bytes. */
export function toRedisArguments(command: RestCommand): Buffer[] {
  return command.map((arg) => Buffer.from(String(arg), "utf8"));
}
