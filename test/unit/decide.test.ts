import { describe, expect, it } from "vitest";
import { type DecidableMessage, type DecideOptions, decideResponse, explicitTrigger } from "../../lib/decide/index.ts";
import type { BotIdentity, ConversationState, StoredMessage } from "../../lib/message.ts";
import { CONTINUATION_FLOOR, RESPOND_THRESHOLD } from "../../lib/decide/model.ts";

const BOT: BotIdentity = { userId: "UBOT", name: "Parley", aliases: ["pal", "help desk", "bar_", "[x]"] };
const OPTS: DecideOptions = { followupWindowSeconds: 60, useJudge: false };
const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const HUMANS: Record<string, string> = { UALICE: "alice", UBOB: "bob", UCAROL: "carol" };

function message(text: string, over: Partial<DecidableMessage> = {}): DecidableMessage {
  return {
    author: { id: "UALICE", name: "alice", isBot: false },
    text,
    ts: T0,
    addressing: "none",
    mentions: [],
    ...over,
  };
}

type Line = [authorId: string, text: string, secondsAfterT0: number];

/** A channel as the store hands it over: the lines so far, then the message being decided last. */
function channel(lines: Line[], msg: DecidableMessage, over: Partial<ConversationState> = {}): ConversationState {
  const recent: StoredMessage[] = lines.map(([authorId, text, s], k) => ({
    id: `m${k}`,
    role: authorId === BOT.userId ? "assistant" : "user",
    authorId,
    authorName: authorId === BOT.userId ? BOT.name : HUMANS[authorId]!,
    text,
    ts: T0 + s * 1000,
  }));
  recent.push({
    id: "now",
    role: "user",
    authorId: msg.author.id,
    authorName: msg.author.name,
    text: msg.text,
    ts: msg.ts,
  });
  const botTurns = recent.filter((m) => m.role === "assistant");
  return {
    active: true,
    id: "c1",
    startedAt: T0,
    lastActivityAt: msg.ts,
    lastBotReplyAt: botTurns.at(-1)?.ts,
    lastBotReplyTo: botTurns.length ? ["UALICE"] : [],
    answeredThrough: botTurns.at(-1)?.ts ?? 0,
    recent,
    ...over,
  };
}

/** Alice asked the bot, the bot answered her; now someone says `text` `seconds` after the answer. */
function afterAnswer(text: string, seconds: number, author = "UALICE") {
  const msg = message(text, {
    ts: T0 + (20 + seconds) * 1000,
    author: { id: author, name: HUMANS[author]!, isBot: false },
  });
  const lines: Line[] = [
    ["UBOB", "carol: did the upgrade finish?", 0],
    ["UCAROL", "bob: yes, all good", 5],
    ["UALICE", "parley: how do I list open ports on this box?", 10],
    ["UBOT", "alice: run `ss -tlnp`, it lists listening TCP ports with their processes", 20],
  ];
  return { state: channel(lines, msg), msg };
}

describe("explicit triggers (tier 1)", () => {
  it.each([
    ["mention", "direct_mention"],
    ["reply_to_bot", "reply_to_bot"],
    ["dm", "dm"],
    ["command", "command"],
  ] as const)("a platform %s always gets an answer", (addressing, reason) => {
    const msg = message("hello", { addressing });
    expect(explicitTrigger(msg, BOT)).toBe(reason);
    expect(decideResponse(channel([], msg, { active: false }), msg, BOT, OPTS)).toEqual({ respond: "yes", reason });
  });

  it("a platform mention of the bot's user id or a reply to its message counts even without the addressing flag", () => {
    expect(explicitTrigger(message("hey", { mentions: ["UBOB", "UBOT"] }), BOT)).toBe("direct_mention");
    expect(explicitTrigger(message("sure", { replyToAuthorId: "UBOT" }), BOT)).toBe("reply_to_bot");
  });

  it.each(["parley can you help?", "Hey PARLEY.", "Parléy, what now?", "what do you think, parley", "@parley ping"])(
    "the bot's name as a whole word, any case or accent, is answered: %s",
    (text) => {
      expect(explicitTrigger(message(text), BOT)).toBe("name_exact");
    },
  );

  it.each(["parleying with the enemy", "reparley", "parley_bot is down", "parleyx"])(
    "a word that merely contains the name is not a trigger: %s",
    (text) => {
      expect(explicitTrigger(message(text), BOT)).toBeNull();
    },
  );

  it.each([
    ["pal, you there?", "name_alias"],
    ["thanks, Help  Désk!", "name_alias"],
    ["ask the Help  Désk about it", null],
    ["the helpdesk is closed", null],
    ["bar_: ping", "name_alias"],
    ["[x] what is this", "name_alias"],
    ["pals are great", null],
    ["a bar is open", null],
    ["x marks it", null],
  ] as const)("aliases match as whole words, punctuation and several words included: %s", (text, reason) => {
    expect(explicitTrigger(message(text), BOT)).toBe(reason);
  });
});

describe("who never triggers the bot", () => {
  it("the bot's own message is never answered, even when it says its own name", () => {
    const msg = message("Parley here", { author: { id: "UBOT", name: "Parley", isBot: true }, addressing: "mention" });
    expect(decideResponse(channel([], msg), msg, BOT, OPTS)).toEqual({ respond: "no", reason: "self" });
  });

  it("another bot is never answered, even when it mentions this one", () => {
    const msg = message("parley: beep", {
      author: { id: "UOTHER", name: "otherbot", isBot: true },
      addressing: "mention",
    });
    expect(decideResponse(channel([], msg), msg, BOT, OPTS)).toEqual({ respond: "no", reason: "other_bot" });
  });
});

describe("messages without an explicit trigger", () => {
  it("with no active conversation, a message that does not address the bot is not answered", () => {
    const { state, msg } = afterAnswer("thanks, that worked", 10);
    expect(decideResponse({ ...state, active: false }, msg, BOT, OPTS)).toEqual({
      respond: "no",
      reason: "no_trigger",
    });
  });

  it("the person the bot just answered following up within the window is answered", () => {
    const { state, msg } = afterAnswer("thanks! and how do I see UDP ones too?", 15);
    expect(decideResponse(state, msg, BOT, OPTS)).toMatchObject({ respond: "yes", reason: "recent_followup" });
  });

  it("the same words long after the window, with others talking in between, are not answered", () => {
    const msg = message("thanks! and how do I see UDP ones too?", { ts: T0 + 30 * 60_000 });
    const lines: Line[] = [
      ["UALICE", "parley: how do I list open ports on this box?", 10],
      ["UBOT", "alice: run `ss -tlnp`, it lists listening TCP ports with their processes", 20],
      ...Array.from(
        { length: 12 },
        (_, k): Line => [k % 2 ? "UBOB" : "UCAROL", k % 2 ? "carol: nope" : "bob: did it build?", 600 + k * 60],
      ),
    ];
    const decision = decideResponse(channel(lines, msg), msg, BOT, OPTS);
    expect(decision.respond).toBe("no");
    expect(decision.reason).toBe("no_trigger");
  });

  it("a message opening with someone else's name is for them", () => {
    const { state, msg } = afterAnswer("bob: did you restart it?", 5);
    expect(decideResponse(state, msg, BOT, OPTS)).toEqual({ respond: "no", reason: "addressed_other" });
  });

  it("a platform mention of someone else is for them", () => {
    const { state, msg } = afterAnswer("what do you think?", 5);
    const toBob = { ...msg, mentions: ["UBOB"] };
    expect(decideResponse(state, toBob, BOT, OPTS)).toEqual({ respond: "no", reason: "addressed_other" });
  });

  it("a bystander's follow-up to the bot goes to the LLM judge when it is on; without it, only as far as train chose", () => {
    const { state, msg } = afterAnswer("and netstat?", 30, "UCAROL");
    const withJudge = decideResponse(state, msg, BOT, { ...OPTS, useJudge: true });
    expect(withJudge).toMatchObject({ respond: "judge", reason: "judge" });
    const score = withJudge.score!;
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(1);
    // Without the judge, the continuation path answers alone from the floor cross-validation chose on train.
    const expected =
      score >= RESPOND_THRESHOLD ? "recent_followup" : score >= CONTINUATION_FLOOR ? "continuation" : "no_trigger";
    expect(decideResponse(state, msg, BOT, OPTS)).toMatchObject({
      respond: expected === "no_trigger" ? "no" : "yes",
      reason: expected,
    });
  });

  it("a continuation that only might be for the bot goes to the judge when it is on, and is not answered when it is off", () => {
    const { state, msg } = afterAnswer("I never knew about tlnp", 30, "UCAROL");
    expect(decideResponse(state, msg, BOT, OPTS)).toMatchObject({ respond: "no", reason: "no_trigger" });
    expect(decideResponse(state, msg, BOT, { ...OPTS, useJudge: true })).toMatchObject({
      respond: "judge",
      reason: "judge",
    });
  });

  it("a bystander's question pointing back at the answer is answered alone only when it is on the answer's words", () => {
    const onTopic = afterAnswer("does that list udp ports too?", 30, "UCAROL");
    const score = decideResponse(onTopic.state, onTopic.msg, BOT, { ...OPTS, useJudge: true }).score!;
    const expected =
      score >= RESPOND_THRESHOLD ? "recent_followup" : score >= CONTINUATION_FLOOR ? "continuation" : "no_trigger";
    expect(decideResponse(onTopic.state, onTopic.msg, BOT, OPTS)).toMatchObject({ reason: expected });
    const ownQuestion = afterAnswer("what is that?", 30, "UCAROL");
    expect(decideResponse(ownQuestion.state, ownQuestion.msg, BOT, OPTS)).toMatchObject({
      respond: "no",
      reason: "no_trigger",
    });
    expect(decideResponse(ownQuestion.state, ownQuestion.msg, BOT, { ...OPTS, useJudge: true })).toMatchObject({
      respond: "judge",
    });
  });

  it("the same follow-up after the window is neither answered nor judged", () => {
    const { state, msg } = afterAnswer("and netstat?", 90, "UCAROL");
    expect(decideResponse(state, msg, BOT, { ...OPTS, useJudge: true })).toMatchObject({
      respond: "no",
      reason: "no_trigger",
    });
  });

  it("a bystander's unrelated chatter with someone else is not sent to the LLM judge", () => {
    const msg = message("did you try the nvidia driver from the ppa before rebooting", {
      ts: T0 + 20 * 60_000,
      author: { id: "UCAROL", name: "carol", isBot: false },
    });
    const lines: Line[] = [
      ["UALICE", "parley: how do I list open ports on this box?", 10],
      ["UBOT", "alice: run `ss -tlnp`, it lists listening TCP ports with their processes", 20],
      ["UBOB", "carol: my screen stays black after the upgrade", 900],
      ["UCAROL", "bob: which graphics card?", 960],
      ["UBOB", "carol: a geforce 1060, it worked yesterday", 1020],
      ["UCAROL", "bob: then it is the driver", 1080],
      ["UBOB", "the nouveau one i think", 1140],
    ];
    const decision = decideResponse(channel(lines, msg), msg, BOT, { ...OPTS, useJudge: true });
    expect(decision.respond).toBe("no");
    expect(decision.reason).toBe("no_trigger");
  });
});

describe("the name: talking to the bot, or about it", () => {
  it.each(["Parley can you help?", "hey parley, a question", "what now, parley?", "parley?", "great, thanks Parley"])(
    "addressing it is answered at once: %s",
    (text) => {
      expect(explicitTrigger(message(text), BOT)).toBe("name_exact");
    },
  );

  it.each([
    "auto, as parley said",
    "ask parley, it knows",
    "parley is pretty good at this",
    "I asked parley yesterday",
  ])("talking about it is no trigger, the model reads it: %s", (text) => {
    expect(explicitTrigger(message(text), BOT)).toBeNull();
  });
});

describe("addressing someone else inside the follow-up window", () => {
  it.each([
    ["Carol, are you coming to lunch today?", "UALICE"],
    ["hey Bob, did you get my email?", "UALICE"],
    ["thanks carol!", "UALICE"],
    ["bob are you still on the trip?", "UALICE"],
  ])("%s is for them, not the bot", (text, author) => {
    const { state, msg } = afterAnswer(text, 10, author);
    expect(decideResponse(state, msg, BOT, OPTS)).toEqual({ respond: "no", reason: "addressed_other" });
  });

  it("a platform reply to someone who spoke since the answer is for them", () => {
    const { state, msg } = afterAnswer("haha same", 10, "UCAROL");
    state.recent.splice(-1, 0, {
      id: "b1",
      role: "user",
      authorId: "UBOB",
      authorName: "bob",
      text: "I never remember that",
      ts: msg.ts - 2000,
    });
    const reply = { ...msg, replyToAuthorId: "UBOB" };
    expect(decideResponse(state, reply, BOT, OPTS)).toEqual({ respond: "no", reason: "addressed_other" });
  });
});

describe("not you", () => {
  it.each(["not you, Parley", "I wasn't talking to you", "not you parley, I meant bob", "that wasn't for you"])(
    "%s is not answered and says why",
    (text) => {
      const { state, msg } = afterAnswer(text, 10, "UALICE");
      expect(decideResponse(state, msg, BOT, OPTS)).toEqual({ respond: "no", reason: "not_you" });
    },
  );

  it("after it, the bot does not follow up with that person within the window, but still answers its name", () => {
    const said = afterAnswer("I wasn't talking to you", 10, "UALICE");
    const next = message("and how do I see UDP ones too?", { ts: said.msg.ts + 20_000 });
    const state = channel([], next, { ...said.state, recent: [...said.state.recent] });
    state.recent.push({
      id: "next",
      role: "user",
      authorId: "UALICE",
      authorName: "alice",
      text: next.text,
      ts: next.ts,
    });
    expect(decideResponse(state, next, BOT, OPTS)).toEqual({ respond: "no", reason: "told_not_you" });
    const named = { ...next, text: "parley, and the UDP ones?" };
    state.recent[state.recent.length - 1] = { ...state.recent.at(-1)!, text: named.text };
    expect(decideResponse(state, named, BOT, OPTS)).toMatchObject({ respond: "yes", reason: "name_exact" });
  });

  it("a 👎 recorded as feedback is never answered, and quiets its author's follow-ups", () => {
    const { state, msg } = afterAnswer("", 5, "UCAROL");
    const thumbsDown = { ...msg, feedback: "not_you" as const };
    expect(decideResponse(state, thumbsDown, BOT, OPTS)).toEqual({ respond: "no", reason: "not_you" });
    state.recent[state.recent.length - 1] = { ...state.recent.at(-1)!, feedback: "not_you", noReply: true };
    const next = message("and netstat?", {
      ts: msg.ts + 10_000,
      author: { id: "UCAROL", name: "carol", isBot: false },
    });
    state.recent.push({ id: "n", role: "user", authorId: "UCAROL", authorName: "carol", text: next.text, ts: next.ts });
    expect(decideResponse(state, next, BOT, OPTS)).toEqual({ respond: "no", reason: "told_not_you" });
  });
});
