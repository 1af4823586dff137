/**
 * @module
 * The measured steps of bench/load. An inbound phase sends one kind of message to Parley, interleaved with the
 * do-nothing Worker, and reads what the store's redis-server ran meanwhile (INFO commandstats: script internals
 * included) and how many REST requests reached the bridge. The jobs phase lets the held QStash deliveries through
 * and reads the same once every job (reply and memory) has answered.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { RunningProxy } from "./proxy.ts";
import { replyCounts } from "./replies.ts";
import { sendInterleaved, type InterleavedAcks } from "./send.ts";
import type { Stack } from "./stack.ts";
import { commandsBetween } from "./stats.ts";
import type { PlannedMessage } from "./traffic.ts";

export interface RedisCost {
  commands: number;
  byCommand: Map<string, number>;
  roundTrips: number;
}

export interface InboundPhase extends RedisCost {
  messages: number;
  acks: InterleavedAcks;
}

export interface JobsPhase extends RedisCost {
  /** Replies posted per place that needed one. */
  replies: Map<string, number>;
}

const POLL_MS = 250;
/** The jobs are done when no delivery is in flight and none arrived for this long. */
const JOBS_QUIET_MS = 3_000;

/** Runs `work` and returns what it cost in Redis. */
export async function costOf<T>(stack: Stack, work: () => Promise<T>): Promise<RedisCost & { result: T }> {
  const trips = stack.bridgeRequests();
  const before = await stack.redisCommands();
  const result = await work();
  const { total, byCommand } = commandsBetween(before, await stack.redisCommands());
  return { result, commands: total, byCommand, roundTrips: stack.bridgeRequests() - trips };
}

export async function inboundPhase(
  stack: Stack,
  urls: { parley: string; noop: string },
  messages: readonly PlannedMessage[],
  rate: number,
): Promise<InboundPhase> {
  const { result: acks, ...cost } = await costOf(stack, () => sendInterleaved(urls, messages, rate));
  return { messages: messages.length, acks, ...cost };
}

/** Waits until the gate has no delivery in flight and has seen none for JOBS_QUIET_MS. */
export async function jobsSettled(gate: RunningProxy, deadline: number): Promise<void> {
  for (;;) {
    const { pending, lastRequestAt } = gate.activity();
    if ((pending === 0 && performance.now() - lastRequestAt > JOBS_QUIET_MS) || Date.now() > deadline) return;
    await sleep(POLL_MS);
  }
}

/** Opens the gate and waits for every expected reply and for the jobs to settle (memory jobs come after replies). */
export async function jobsPhase(stack: Stack, expected: ReadonlySet<string>, deadlineMs: number): Promise<JobsPhase> {
  const { result: replies, ...cost } = await costOf(stack, async () => {
    stack.gate.open();
    const deadline = Date.now() + deadlineMs;
    const counts = await replyCounts(stack.fakes, expected, deadlineMs);
    await jobsSettled(stack.gate, deadline);
    return new Map([...counts].filter(([place]) => expected.has(place)));
  });
  return { replies, ...cost };
}
