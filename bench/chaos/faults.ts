/**
 * @module
 * The fault plan of bench/chaos: at every boundary a share `rate` of the calls fails, split over that boundary's
 * ways of failing, each rule drawing from its own generator seeded from the run's seed (dev/faults/rules.ts), so a
 * seed replays the same plan. Webhook redeliveries are the sender's part (./send.ts).
 */
import { injectedFaults, scriptFault } from "../../test/support/fault-control.ts";

export interface FaultTargets {
  qstash: string;
  redisProxy: string;
  slack: string;
  discord: string;
  twilio: string;
  telegram: string;
  googleChat: string;
  teams: string;
  model: string;
}

type Rule = { fault: string; path?: string; bodyContains?: string } & Record<string, unknown>;

/** A lost answer (`drop_after`) is the platform carrying the call out and the Worker never hearing so. */
const PLATFORM_FAULTS: Rule[] = [
  { fault: "ratelimit", retryAfter: 1 },
  { fault: "refuse", status: 500 },
  { fault: "drop_after" },
];

/** Every boundary, its control base, and how it fails. */
function boundaries(t: FaultTargets): [string, string, Rule[]][] {
  return [
    [
      "qstash",
      t.qstash,
      [
        { fault: "refuse_publish", status: 500 },
        { fault: "drop_after_store" },
        { fault: "duplicate" },
        { fault: "late", delayMs: 30_000 },
        { fault: "lose_answer" },
      ],
    ],
    ["redis", t.redisProxy, [{ fault: "refuse", status: 503 }, { fault: "drop_before" }, { fault: "drop_after" }]],
    ["slack", t.slack, PLATFORM_FAULTS.map((r) => ({ ...r, path: "/chat.postMessage" }))],
    [
      "discord",
      t.discord,
      ["/edit_original", "/followup"].flatMap((path) => PLATFORM_FAULTS.map((r) => ({ ...r, path }))),
    ],
    ["twilio", t.twilio, PLATFORM_FAULTS.map((r) => ({ ...r, path: "/messages.create" }))],
    // A part posted, a streamed group answer's first words, a draft's message; and the edit that finishes a group's.
    [
      "telegram",
      t.telegram,
      ["/sendMessage", "/editMessageText"].flatMap((path) => PLATFORM_FAULTS.map((r) => ({ ...r, path }))),
    ],
    // A part posted, a streamed answer's first words; the edits that grow and finish it.
    [
      "googleChat",
      t.googleChat,
      ["/spaces.messages.create", "/spaces.messages.patch"].flatMap((path) =>
        PLATFORM_FAULTS.map((r) => ({ ...r, path })),
      ),
    ],
    // A part posted (a 1:1 answer's stream ends in it), a channel answer's first words; the edits that grow it.
    [
      "teams",
      t.teams,
      ["/send activity", "/update activity"].flatMap((path) => PLATFORM_FAULTS.map((r) => ({ ...r, path }))),
    ],
    // The reply's model call: garbage, an error, a stream cut short. The judge is left alone, so that which
    // messages need an answer stays a fact of the plan.
    [
      "model",
      t.model,
      [{ fault: "refuse", status: 500 }, { fault: "garbage", shape: "not_json" }, { fault: "drop_after" }].map((r) => ({
        ...r,
        path: "/chat.completions",
        bodyContains: '"kind":"reply"',
      })),
    ],
  ];
}

export async function armFaults(t: FaultTargets, rate: number, seed: number): Promise<void> {
  if (rate === 0) return;
  let n = 0;
  for (const [, control, rules] of boundaries(t)) {
    // A boundary's ways of failing share its rate; rules for several paths each take the whole share per path.
    const paths = new Set(rules.map((r) => r.path)).size;
    const share = (rate * paths) / rules.length;
    for (const rule of rules)
      await scriptFault(control, { ...rule, rate: share, seed: seed * 1009 + ++n } as Parameters<
        typeof scriptFault
      >[1]);
  }
}

/** The faults injected, per boundary, each with the fields of the call it hit. */
export async function faultsInjected(t: FaultTargets): Promise<Record<string, Record<string, unknown>[]>> {
  const faults: Record<string, Record<string, unknown>[]> = {};
  for (const [name, control] of boundaries(t))
    faults[name] = (await injectedFaults(control)) as unknown as Record<string, unknown>[];
  return faults;
}

/**
 * The Telegram chats and Teams conversations (as checks.ts names places: `telegram|<chat>|`, `teams|<chat>|<root>`)
 * where a message was sent and its answer lost (`drop_after`): neither the Bot API nor the Bot Connector can take an
 * idempotency key or list a chat's messages, so the job sends it again (docs/platforms/telegram.md and
 * docs/platforms/teams.md, "Exactly once").
 */
export async function lostSends(t: FaultTargets): Promise<Set<string>> {
  const field = (f: unknown, name: string) => String((f as Record<string, unknown>)[name]);
  const telegram = await injectedFaults(t.telegram, { fault: "drop_after", route: "sendMessage" });
  const teams = await injectedFaults(t.teams, { fault: "drop_after", route: "send activity" });
  return new Set([
    ...telegram.map((f) => `telegram|${field(f, "chat_id")}|`),
    ...teams.map((f) => {
      const [chat, root = ""] = field(f, "conversation").split(";messageid=");
      return `teams|${chat}|${root}`;
    }),
  ]);
}
