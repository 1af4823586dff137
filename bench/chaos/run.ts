/**
 * @module
 * `npm run bench:chaos -- [--seed S] [--conversations N] [--fault-rate R] [--json]`: a fault soak. The real Worker in
 * workerd on the local stack (bench/load/stack.ts) with QStash on its production retry schedule and a virtual
 * clock, a fault proxy in front of the Redis bridge, the platform fakes and the local model; N conversations
 * (./plan.ts, some asking for tools: ./tool-asks.ts, some stopped as they are written: ./stops.ts) while every
 * boundary fails at random (./faults.ts) and webhooks are delivered again as each platform does (./send.ts); time is
 * driven until nothing is due, then the promises are checked from outside (./checks.ts).
 * Prints each figure, the problems found, and a last JSON line; the seed replays the run exactly (apart from the
 * order concurrent calls happen to take).
 */
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand } from "../../dev/cli.ts";
import { seededRandom } from "../../dev/faults/seeded-random.ts";
import { readClock } from "../../test/support/qstash-clock.ts";
import { timePasses } from "../../test/support/time-warp.ts";
import { QSTASH_DEV } from "../load/workers.ts";
import { checkAnswers, checkRecords, collectOutputs } from "./checks.ts";
import { parseEvents, readExercised } from "./exercised.ts";
import { realTimeLimitsOff } from "./fake-settings.ts";
import { captureLogLines, chaosLeakPatterns, checkLines, checkPrompts, withoutCiphertext } from "./leaks.ts";
import { chaosArgs, command } from "./options.ts";
import { brokenCounters, printFigures, printProblems } from "./report.ts";
import { readSources, writeTrace } from "./trace.ts";
import { checkInvited, inInvited, planInvited, prepareInvited } from "./invited.ts";
import { armFaults, faultsInjected, lostSends } from "./faults.ts";
import { sendHostile } from "./hostile.ts";
import { APPROVAL_MODEL_RULES, sendApprovalCases } from "./hostile-approvals.ts";
import { CHAOS_ADMIN_TOKEN, HOSTILE_SLACK_TEAM, PRIVACY_MODEL_RULES, sendPrivacyCases } from "./hostile-privacy.ts";
import { planConversations, SLACK_TEAMS, tagOf } from "./plan.ts";
import { newSendStats, sendConversations, sendLateRetries } from "./send.ts";
import { checkToolCalls, toolModelRules, toolServerCalls } from "./tool-asks.ts";
import { startChaosStack } from "./stack.ts";
import { checkConfirmCalls, sendApprovals, sendLatePresses } from "./approvals.ts";
import { pickStopCases, watchStops } from "./stops.ts";
import { armWatchdog } from "./watchdog.ts";

const KEY_PREFIX = "chaos";
/** Slack's late retries come a minute after the first delivery. */
const LATE_RETRY_AFTER_MS = 60_000;
const STEP_MS = 10 * 60_000;
/**
 * QStash's last retry comes about 33 minutes after the first attempt; a day leaves room for late and flow-controlled
 * ones.
 */
const MAX_VIRTUAL_MS = 24 * 3_600_000;
/** Where the trace of a run that broke a promise goes (gitignored). */
const TRACES_DIR = join(dirname(fileURLToPath(import.meta.url)), "traces");

async function main(): Promise<void> {
  const args = chaosArgs();
  const dog = armWatchdog(args["time-limit"] * 1000);
  const seed = args.seed ?? Date.now() % 1_000_000;
  const rate = args["fault-rate"];
  const out = args.json ? () => {} : (line: string) => process.stdout.write(`${line}\n`);

  // Every JSON line printed in this process is the Worker's or a stand-in's log: kept for the leak check, not shown.
  const logLines = captureLogLines();
  const publishes: string[] = [];

  const started = Date.now();
  const chaos = await startChaosStack({
    keyPrefix: KEY_PREFIX,
    modelRules: [...PRIVACY_MODEL_RULES, ...APPROVAL_MODEL_RULES, ...toolModelRules(args.conversations, tagOf)],
    settings: { ADMIN_TOKEN: CHAOS_ADMIN_TOKEN },
    onPublish: (b) => void publishes.push(b.toString("utf8")),
  });
  dog.hooks({ jobsDue: chaos.waiting });
  const { stack, sender, faultTargets, redis } = chaos;
  try {
    const stats = newSendStats();
    const problems: string[] = [];
    const settle = async (ms: number) =>
      timePasses({ qstashUrl: stack.qstashUrl, redis, keyPrefix: `${KEY_PREFIX}:` }, ms);

    dog.enter("hostile_cases");
    await chaos.install([HOSTILE_SLACK_TEAM, ...SLACK_TEAMS]);
    await realTimeLimitsOff(sender);
    const hostile = await sendHostile(sender, stats, problems);
    const privacy = await sendPrivacyCases({
      ...sender,
      qstashSigningKey: QSTASH_DEV.QSTASH_CURRENT_SIGNING_KEY,
      modelUrl: stack.modelUrl,
    });
    const approvalCases = await sendApprovalCases({ ...sender, toolServer: chaos.tools.url }, settle);
    await settle(STEP_MS);
    const hostileBroken = (await privacy.check(problems)) + (await approvalCases.check(problems));

    // What the hostile cases got answered is theirs: the checks read the conversations' places only.
    const platforms = [faultTargets.slack, faultTargets.discord, faultTargets.twilio, faultTargets.telegram];
    // And the tool server's record: the soak's approvals are counted from its own calls.
    for (const url of [...platforms, faultTargets.googleChat, faultTargets.teams, chaos.tools.url])
      await fetch(`${url}/__reset`, { method: "POST" });
    // After the reset, which brings the fake's own settings (its tiers on) back and forgets the tokens it issued.
    await chaos.install(SLACK_TEAMS);
    await realTimeLimitsOff(sender);
    const random = seededRandom(seed);
    const run = `R${seed.toString(36).toUpperCase()}`;
    const conversations = planConversations(args.conversations, random, run);
    // Paced before they are sent; the presses draw from a random of their own, so that the plan replays as before.
    const stopCases = pickStopCases(conversations);
    // About one channel in twenty invited the bot to join in, and as many asked a question of nobody (./invited.ts).
    const invited = planInvited(conversations.length, Math.max(1, Math.round(conversations.length / 20)), random, run);
    await prepareInvited(invited, redis, KEY_PREFIX, sender.slackControl);
    dog.enter("sending");
    await armFaults(faultTargets, rate, seed);
    const stopWatch = watchStops(sender, stats, stopCases, seededRandom(seed + 1));
    const sent = await sendConversations(sender, stats, [...conversations, ...invited], rate, random);
    // Every accepted message is recorded before anything expires (time has not moved yet); a rescue's question is
    // not (nobody called the bot there).
    const recorded = [...conversations, ...invited.filter((c) => c.kind === "slack_initiative")];
    const records = await checkRecords(redis, KEY_PREFIX, recorded, sent.accepted, problems);

    dog.enter("driving_time");
    await settle(LATE_RETRY_AFTER_MS);
    await sendLateRetries(sender, stats, sent.lateRetries);
    // The questions that ask to run create_ticket are up by now: their askers answer them (or never do).
    const approvals = await sendApprovals(sender, stats, conversations, random);
    let waited = LATE_RETRY_AFTER_MS;
    const untilSettled = async () => {
      while ((await readClock(stack.qstashUrl)).nextDueAt !== null && waited < MAX_VIRTUAL_MS) {
        await settle(STEP_MS);
        waited += STEP_MS;
      }
    };
    await untilSettled();
    // Every question expired by now: the presses that come too late, and whatever they (wrongly) set off.
    await sendLatePresses(sender, stats, approvals);
    await settle(STEP_MS);
    await untilSettled();
    const unsettled = (await readClock(stack.qstashUrl)).nextDueAt !== null;
    if (unsettled) problems.push(`unsettled: QStash still had messages due after ${MAX_VIRTUAL_MS / 3_600_000} h`);

    dog.enter("checks");
    const stops = await stopWatch.finish(problems);
    const outputs = await collectOutputs(stack.fakes);
    const invitedHere = inInvited(invited);
    const answers = checkAnswers(
      conversations,
      sent.accepted,
      outputs.filter((o) => !invitedHere(o)),
      problems,
      await lostSends(faultTargets),
    );
    // Google Chat's and Teams' shares of the figures above, each on its own (its conversations and the bot's posts).
    const shareOf = (platform: string) => {
      const here = conversations.filter((c) => c.place.platform === platform);
      const share = checkAnswers(
        here,
        sent.accepted,
        outputs.filter((o) => o.place.platform === platform),
        [],
      );
      const { accepted, answered_once, apologized } = share;
      return { conversations: here.length, accepted, answered_once, apologized };
    };
    const joinedIn = checkInvited(invited, sent.accepted, outputs.filter(invitedHere), problems);
    const patterns = chaosLeakPatterns();
    const prompts = await checkPrompts(stack.modelUrl, problems);
    const leaks =
      prompts.leaks +
      checkLines("log line", logLines, patterns, problems) +
      checkLines("queue payload", publishes.map(withoutCiphertext), patterns, problems);
    const faults = await faultsInjected(faultTargets);
    const calls = await toolServerCalls(chaos.tools);
    const toolFigures = {
      ...checkToolCalls(calls, problems),
      approval_questions: approvals.questions,
      approved: approvals.approved.size,
      denied: approvals.denied,
      clicks: Object.values(approvals.clicks).reduce((a, b) => a + b, 0),
      approved_by_click: approvals.approvedByClick,
      ...stops,
      ...checkConfirmCalls(calls, approvals, problems),
    };

    if (args["log-file"]) await writeFile(args["log-file"], logLines.map((l) => `${l}\n`).join(""));
    const events = parseEvents(logLines);
    const origins = { ...faultTargets, slackControl: sender.slackControl, redis, keyPrefix: KEY_PREFIX };
    const exercised = await readExercised(origins, events, approvals, joinedIn, invited);
    const result = {
      conversations: conversations.length,
      triggers: conversations.length,
      accepted: answers.accepted,
      faults_injected: Object.values(faults).reduce((a, b) => a + b.length, 0),
      answered_once: answers.answered_once,
      apologized: answers.apologized,
      answered_twice: answers.answered_twice,
      twice_as_telegram_allows: answers.twice_as_platform_allows,
      unanswered: answers.unanswered,
      lost_records: records.lost,
      misplaced: answers.misplaced + records.misplaced,
      leaks,
      hostile_cases: hostile.cases + privacy.cases + approvalCases.cases,
      hostile_5xx: hostile.fiveXx,
      hostile_broken: hostileBroken,
      ...joinedIn,
      ...toolFigures,
      google_chat: { ...shareOf("google-chat"), clicks: approvals.clicks["google-chat"] },
      teams: shareOf("teams"),
      exercised,
      seed,
    };
    const seconds = Math.round((Date.now() - started) / 1000);
    const seen = { lateRetries: sent.lateRetries.length, logLines: logLines.length, publishes: publishes.length };
    const figures = { seed, conversations: conversations.length, rate, seconds };
    printFigures(out, figures, stats, { ...seen, prompts: prompts.read, posts: outputs.length }, faults, result);
    printProblems(problems);
    const broken = brokenCounters(result, unsettled);
    const trace =
      Object.keys(broken).length === 0
        ? undefined
        : await writeTrace({
            ...{ dir: TRACES_DIR, seed, counters: broken, problems },
            conversations: [...conversations, ...invited],
            sources: await readSources(origins, stats.sent, faults, events),
          });
    if (trace)
      process.stderr.write(
        `bench:chaos: promises broken (trace: ${trace}); replay with --seed ${seed} --conversations ${conversations.length} --fault-rate ${rate}\n`,
      );
    process.stdout.write(`${JSON.stringify({ ...result, ...(trace ? { trace } : {}) })}\n`);
    if (trace) process.exitCode = 1;
  } finally {
    dog.enter("stopping");
    await chaos.stop();
  }
}

// runCommand exits once main is done: nothing keeps the process after its last line (CI runs two seeds in a row).
await runCommand(command.name, main);
