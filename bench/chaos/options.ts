/**
 * @module
 * bench/chaos's command line (./run.ts): its options, their help, and the settings they parse into.
 */
import { z } from "zod";
import { CommandError, defineCommand, parseCommandLine } from "../../dev/cli.ts";

export const command = defineCommand({
  name: "npm run bench:chaos",
  summary:
    "A fault soak: conversations across Slack (channels, threads, DMs, two workspaces), Discord (/ask in guilds and DMs), SMS, Telegram (groups, private chats) and Google Chat (spaces, threads, DMs; signed events from the Google Chat fake) against the real Worker, while every boundary (QStash, Redis, the platforms' APIs, the model, webhook redeliveries) fails at random from a seed; time runs on QStash's production schedule with a virtual clock until everything settled. Then checks from outside that every accepted trigger got exactly one answer (or one apology after the last retry), nothing accepted is missing from its conversation, nothing went to the wrong place or tenant, no DM text reached another prompt, no phone number, token or message text is in a log line or queue payload, no signed hostile input got a 5xx, and the hostile privacy cases held (a forged speaker line stays its author's, repeated forgets are limited, a swapped sealed job is refused, parallel admin guesses get no more than the allowance). One conversation in five asks for a ticket lookup at the local tool server (no idempotency key is called with different arguments), another in five for the confirm-only create_ticket, whose question its asker answers by a reaction, a YES or NO, or a press of its buttons on Slack, Discord and Telegram (with strangers' presses, double clicks, redeliveries and presses after expiry): create_ticket runs exactly once for each approval accepted in time, and never otherwise. A few answers are written slowly and their asker presses Stop while they grow (Slack, Discord, Telegram; double clicks and redeliveries): a stopped answer ends once with its stop note and its Stop gone (stop_continued 0).",
  options: {
    seed: {
      type: "string",
      description: "the seed of the traffic and of every fault (default: from the time; printed)",
      valueName: "n",
    },
    conversations: {
      type: "string",
      default: "300",
      description: "how many conversations (default 300)",
      valueName: "n",
    },
    "fault-rate": {
      type: "string",
      default: "0.05",
      description: "the share of calls failing at each boundary (default 0.05)",
      valueName: "r",
    },
    "time-limit": {
      type: "string",
      default: "240",
      description:
        "seconds of real time the run may take; past them it says where it hung, stops everything and exits 1",
      valueName: "s",
    },
    json: { type: "boolean", default: false, description: "print only the last JSON line (and problems on stderr)" },
    "log-file": {
      type: "string",
      description: "write every log line of the run (Worker and stand-ins) to this file, to trace a failing seed",
      valueName: "path",
    },
  },
  notes: ["Exit code 1 when any promise was broken; the JSON line's seed replays the run."],
});

const argsSchema = z.object({
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .optional(),
  conversations: z.coerce.number().int().min(1).max(2_000),
  "fault-rate": z.coerce.number().min(0).max(0.5),
  "time-limit": z.coerce.number().min(1).max(86_400),
  json: z.boolean(),
  "log-file": z.string().optional(),
});

export type ChaosArgs = z.infer<typeof argsSchema>;

export function chaosArgs(): ChaosArgs {
  const parsed = argsSchema.safeParse(parseCommandLine(command));
  if (!parsed.success)
    throw new CommandError(parsed.error.issues.map((i) => `--${i.path.join(".")} ${i.message}`).join("; "));
  return parsed.data;
}
