import { describe, expect, it } from "vitest";
import {
  adminLimitKeys,
  claimKey,
  conversationKeys,
  conversationKeysAt,
  digestKeys,
  forgetLimitKeys,
  installationTenancy,
  installStartKeys,
  factsKey,
  feedbackKeys,
  optOutKey,
  personalDigestKey,
  personId,
  placeId,
  rateLimitNoticeKey,
  rateLimitPrefix,
  replyKey,
  seenKey,
  spokeKey,
  stopKey,
} from "../../lib/keys.ts";

const thread = { platform: "slack", tenant: "T1", channel: "C1", thread: "1700000000.000100" } as const;
const sms = { platform: "twilio", tenant: "AC1", channel: "+15005550006|+15551234567" } as const;

/** A deployed bot finds its stored conversations, facts and opt-outs again only if the key layout stays put. */
describe("the Redis key layout", () => {
  it("keeps the keys a deployed bot already wrote", () => {
    // `:state` replaced the `:meta` hash when the state became one JSON string: a live conversation of the older
    // layout simply ends (a new name, so no script ever meets a hash where it expects a string).
    expect(conversationKeys("parley", thread)).toEqual({
      state: "parley:conv:slack|T1|C1|1700000000.000100:state",
      log: "parley:conv:slack|T1|C1|1700000000.000100:log",
      answers: "parley:conv:slack|T1|C1|1700000000.000100:answers",
    });
    expect(conversationKeys("parley", sms).state).toBe("parley:conv:twilio|AC1|+15005550006|+15551234567|:state");
    expect(seenKey("parley", thread, "C1:1.2")).toBe("parley:seen:slack|T1|C1:1.2");
    expect(replyKey("parley", thread, "C1:1.2")).toBe("parley:reply:slack|T1|C1:1.2");
    expect(factsKey("parley", thread, "U1")).toBe("parley:facts:slack|T1|U1");
    expect(optOutKey("parley", sms, "+15551234567")).toBe("parley:optout:twilio|AC1|+15551234567");
    expect(rateLimitPrefix("parley", "reply")).toBe("parley:limit:reply");
    expect(rateLimitPrefix("parley", "judge")).toBe("parley:limit:judge");
    expect(rateLimitNoticeKey("parley", personId(thread, "U1"))).toBe("parley:limit:told:slack|T1|U1");
    expect(claimKey("parley", thread, "C1:1.2")).toBe("parley:claim:slack|T1|C1:1.2");
    expect(stopKey("parley", thread, "C1:1.2")).toBe("parley:stop:slack|T1|C1:1.2");
    // A person's feedback on an answer, and the place's counts: per channel, as a reaction names the message.
    expect(feedbackKeys("parley", thread, "1.2", "U1")).toEqual({
      press: "parley:feedback:slack|T1|C1|1.2|U1",
      counts: "parley:feedback-counts:slack|T1|C1",
    });
    // A person's own digest: per person of the tenant; its slots share every digest's slot keys.
    expect(personalDigestKey("parley", thread, "U1")).toBe("parley:digest-me:slack|T1|U1");
    expect(digestKeys("parley", "parley-abc", 1_700_000_000_000).slot).toBe("parley:digest:parley-abc:1700000000000");
  });

  it("finds a person's conversations through their index of places, and names every limit's keys", () => {
    expect(spokeKey("parley", thread, "U1")).toBe("parley:spoke:slack|T1|U1");
    expect(conversationKeysAt("parley", placeId(thread))).toEqual(conversationKeys("parley", thread));
    expect(forgetLimitKeys("parley", personId(thread, "U1"))).toEqual({
      requests: "parley:limit:forget:slack|T1|U1",
      told: "parley:limit:forget-told:slack|T1|U1",
    });
    expect(adminLimitKeys("parley", "p-1")).toEqual({
      client: "parley:limit:admin:p-1",
      all: "parley:limit:admin:all",
      trusted: "parley:admin:trusted:p-1",
    });
    expect(installStartKeys("parley", "p-1")).toEqual({
      client: "parley:limit:install:p-1",
      all: "parley:limit:install:all",
    });
    expect(installationTenancy("parley", "parley:install:slack|E1:T2")).toEqual({ platform: "slack", tenant: "E1:T2" });
    expect(installationTenancy("parley", "parley:conv:slack|T1|C1|:state")).toBeNull();
  });

  it("gives a channel and its threads different places, and every tenant its own", () => {
    const { thread: _thread, ...channel } = thread;
    expect(placeId(channel)).toBe("slack|T1|C1|");
    expect(placeId(thread)).not.toBe(placeId(channel));
    expect(placeId({ ...channel, tenant: "T2" })).not.toBe(placeId(channel));
  });
});
