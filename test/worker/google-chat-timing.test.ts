/**
 * @module
 * Google Chat at production timings (test/support/README.md): QStash's redeliveries never answer twice. A reply
 * job delivered twice, or whose answer QStash lost and delivered again 12 s later, posts one message; a post the
 * Chat API made but whose answer never reached the job is posted again at QStash's retry with the same requestId,
 * and Chat hands back the message it made: still one; a 429 is waited out in the job, no retry spent.
 */
import { describe, expect, it } from "vitest";
import { googleChatText } from "../../lib/platforms/google-chat/format.ts";
import { APOLOGY } from "../../lib/notices.ts";
import { injectedFaults, scriptFault } from "../support/fault-control.ts";
import {
  GOOGLE_CHAT_URL,
  newPerson,
  newSpace,
  PROJECT_NUMBER,
  say,
  spaceMessages,
  chatRequest,
} from "../support/google-chat.ts";
import { ALL_RETRIES_MS, prodTimingSuite, QSTASH_RETRY_DELAYS_MS } from "../support/prod-timing.ts";
import { callWorker, MODEL_CONTROL_URL, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "gchattiming";
const REPLY_PATH = `/t/${SUITE}/jobs/reply`;
const kit = prodTimingSuite(SUITE, { GOOGLE_CHAT_AUDIENCE: PROJECT_NUMBER, STREAMING: "true" });
/** A model slow enough to stream (the local model reads it from the message). */
const PACE = "[[local-model tokens=160 tps=80 first_ms=150]]";

pumpJobsDuringSuite(kit.env, SUITE);

/** A person asks in a new DM; the DM's id (the job's channel). */
async function asked(text: string): Promise<string> {
  const dm = await newSpace("DIRECT_MESSAGE");
  const { delivery } = await say(dm, newPerson("Fay"), text);
  expect((await callWorker(kit.env, chatRequest(delivery!))).status).toBe(200);
  return dm;
}

describe("Google Chat at production timings", () => {
  it("answers once when QStash delivers the reply job twice and loses the answer of a third delivery", async () => {
    const dm = await newSpace("DIRECT_MESSAGE");
    const id = dm.slice("spaces/".length);
    await scriptFault(kit.qstashUrl, { fault: "duplicate", concurrent: false, path: REPLY_PATH, bodyContains: id });
    await scriptFault(kit.qstashUrl, { fault: "lose_answer", path: REPLY_PATH, bodyContains: id });
    const { delivery } = await say(dm, newPerson("Gil"), "what is a monad?");
    expect((await callWorker(kit.env, chatRequest(delivery!))).status).toBe(200);
    await kit.deliveriesSettled();
    await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0]);
    expect(await injectedFaults(kit.qstashUrl, { fault: "duplicate" })).toHaveLength(1);
    expect(await injectedFaults(kit.qstashUrl, { fault: "lose_answer" })).toHaveLength(1);
    await kit.timePasses(ALL_RETRIES_MS);
    expect(await spaceMessages(dm)).toHaveLength(1);
  });

  it("posts a part whose answer was lost once: the retry's requestId gets the message Chat made", async () => {
    const dm = await newSpace("DIRECT_MESSAGE");
    await scriptFault(GOOGLE_CHAT_URL, {
      fault: "drop_after",
      path: "/spaces.messages.create",
      bodyContains: `"space":"${dm}"`,
    } as never);
    const { delivery } = await say(dm, newPerson("Hal"), "what is a functor?");
    expect((await callWorker(kit.env, chatRequest(delivery!))).status).toBe(200);
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([{ path: REPLY_PATH, outcome: "retry" }]);
    expect(await spaceMessages(dm)).toHaveLength(1);
    expect((await kit.timePasses(QSTASH_RETRY_DELAYS_MS[0])).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 1, status: 200, outcome: "done" },
    ]);
    expect((await kit.timePasses(ALL_RETRIES_MS)).deliveries).toEqual([]);
    expect(await spaceMessages(dm)).toHaveLength(1);
  });

  // The stream's first message is made but its answer lost; every later model call fails: the last word is the
  // apology, posted whole, which must take that message's place (bench:chaos seeds 2 and 5-9 left the "(" beside it).
  it("puts the apology in a stream's opening that landed unheard, never beside it", async () => {
    const dm = await newSpace("DIRECT_MESSAGE");
    const marker = `opening-${dm.slice("spaces/".length)}`;
    await scriptFault(GOOGLE_CHAT_URL, {
      fault: "drop_after",
      path: "/spaces.messages.create",
      bodyContains: `"space":"${dm}"`,
    } as never);
    await scriptFault(MODEL_CONTROL_URL, {
      fault: "refuse",
      path: "/chat.completions",
      bodyContains: marker,
      status: 500,
      after: 1,
      times: 20,
    } as never);
    const { delivery } = await say(dm, newPerson("Ida"), `tell me about lenses ${marker} ${PACE}`);
    expect((await callWorker(kit.env, chatRequest(delivery!))).status).toBe(200);
    await kit.deliveriesSettled();
    await kit.timePasses(ALL_RETRIES_MS);
    expect((await spaceMessages(dm)).map((m) => m.text)).toEqual([googleChatText(APOLOGY)]);
  });

  it("waits out a 429 in the job: answered at the first delivery, once, no retry spent", async () => {
    const dm = await asked("what is an applicative?");
    // The job is delivered once the clock is moved: the 429s meet its post.
    await scriptFault(GOOGLE_CHAT_URL, {
      fault: "ratelimit",
      times: 2,
      path: "/spaces.messages.create",
      bodyContains: `"space":"${dm}"`,
    } as never);
    expect((await kit.deliveriesSettled()).deliveries).toMatchObject([
      { path: REPLY_PATH, retried: 0, status: 200, outcome: "done" },
    ]);
    expect(await injectedFaults(GOOGLE_CHAT_URL, { fault: "ratelimit", space: dm })).toHaveLength(2);
    expect(await spaceMessages(dm)).toHaveLength(1);
  });
});
