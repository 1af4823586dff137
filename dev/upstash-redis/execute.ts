/**
 * @module
 * The three REST endpoints as functions from a parsed JSON body to an HTTP status and answer:
 * `/` runs one command, `/pipeline` several (each may fail alone), `/multi-exec` several atomically. `refuse` says
 * why a command must not run (commands Upstash does not serve over REST, and the bridge's own script rule).
 */
import { CommandListSchema, CommandSchema, type RestCommand, toRedisArguments } from "./commands.ts";
import { type ResultItem, toJsonReply, toResultItem } from "./encode.ts";
import { isErrorReply, type RedisLink } from "./redis-link.ts";

/** What went wrong, for the bridge's log: the command's name only, never its arguments. */
interface CommandFailure {
  command: string;
  error: string;
}

export type Refusal = (command: RestCommand) => string | undefined;

export interface EndpointAnswer {
  status: number;
  body: unknown;
  failures: CommandFailure[];
}

const HTTP_OK = 200;
const HTTP_BAD_REQUEST = 400;
const MULTI = [Buffer.from("MULTI")];
const EXEC = [Buffer.from("EXEC")];
const BAD_COMMAND_ERROR = "ERR failed to parse command: expected a JSON array of strings, numbers or booleans";
const BAD_COMMAND_LIST_ERROR = "ERR failed to parse pipeline request: expected a non-empty JSON array of commands";

export async function runCommand(
  redis: RedisLink,
  body: unknown,
  base64: boolean,
  refuse: Refusal,
): Promise<EndpointAnswer> {
  const parsed = CommandSchema.safeParse(body);
  if (!parsed.success) return rejected("request", BAD_COMMAND_ERROR);
  const command = parsed.data;
  const refusal = refuse(command);
  if (refusal) return rejected(commandName(command), refusal);
  const [reply] = await redis.send([toRedisArguments(command)]);
  if (isErrorReply(reply)) return rejected(commandName(command), reply.message);
  return { status: HTTP_OK, body: { result: toJsonReply(reply ?? null, base64) }, failures: [] };
}

export async function runPipeline(
  redis: RedisLink,
  body: unknown,
  base64: boolean,
  refuse: Refusal,
): Promise<EndpointAnswer> {
  const parsed = CommandListSchema.safeParse(body);
  if (!parsed.success) return rejected("pipeline", BAD_COMMAND_LIST_ERROR);
  const commands = parsed.data;
  const runnable = commands.filter((command) => !refuse(command));
  const replies = runnable.length > 0 ? await redis.send(runnable.map(toRedisArguments)) : [];
  let next = 0;
  const items: ResultItem[] = commands.map((command) => {
    const refusal = refuse(command);
    return refusal ? { error: refusal } : toResultItem(replies[next++] ?? null, base64);
  });
  return { status: HTTP_OK, body: items, failures: failuresOf(commands, items) };
}

export async function runTransaction(
  redis: RedisLink,
  body: unknown,
  base64: boolean,
  refuse: Refusal,
): Promise<EndpointAnswer> {
  const parsed = CommandListSchema.safeParse(body);
  if (!parsed.success) return rejected("multi-exec", BAD_COMMAND_LIST_ERROR);
  const commands = parsed.data;
  for (const command of commands) {
    const refusal = refuse(command);
    if (refusal) return rejected(commandName(command), refusal);
  }
  // Written together on the one connection: no other request's command lands inside the transaction.
  const replies = await redis.send([MULTI, ...commands.map(toRedisArguments), EXEC]);
  const execReply = replies.at(-1);
  if (!Array.isArray(execReply)) {
    const queueErrorAt = replies.slice(1, -1).findIndex(isErrorReply);
    const cause = replies[queueErrorAt + 1];
    const message = isErrorReply(execReply) ? execReply.message : "EXECABORT Transaction aborted";
    return {
      status: HTTP_BAD_REQUEST,
      body: { error: message },
      failures: [
        { command: "exec", error: message },
        ...(isErrorReply(cause) ? [{ command: commandName(commands[queueErrorAt] ?? []), error: cause.message }] : []),
      ],
    };
  }
  const items = execReply.map((reply) => toResultItem(reply, base64));
  return { status: HTTP_OK, body: items, failures: failuresOf(commands, items) };
}

function rejected(command: string, error: string): EndpointAnswer {
  return { status: HTTP_BAD_REQUEST, body: { error }, failures: [{ command, error }] };
}

function failuresOf(commands: RestCommand[], items: ResultItem[]): CommandFailure[] {
  return items.flatMap((item, i) =>
    "error" in item ? [{ command: commandName(commands[i] ?? []), error: item.error }] : [],
  );
}

function commandName(command: readonly unknown[]): string {
  return String(command[0] ?? "").toLowerCase();
}
