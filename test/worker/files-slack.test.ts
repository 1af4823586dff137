/**
 * @module
 * What people paste on Slack, end to end over the fakes: a screenshot with a question is answered from the picture
 * (the local model describes what reached it: format, size, dominant colour), a picture alone in a DM is answered, a
 * log file is read into the data block with its end kept, older pictures stay lines, the limits and the byte check
 * name a file instead of showing it, and a model that cannot see images answers from the text, saying so once.
 */
import { describe, expect, it } from "vitest";
import { IMAGES_UNSEEN_NOTICE } from "../../lib/notices.ts";
import { base64Text, slackFile } from "../support/files.ts";
import { dataBlockRecords, modelRequests } from "../support/model.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "files";
const env = suiteEnv(SUITE, { MEMORY_ENABLED: "false", IMAGE_MAX_BYTES: "20000", IMAGES_PER_TURN: "4" });
const BLIND_SUITE = "filesblind";
const blind = suiteEnv(BLIND_SUITE, { MEMORY_ENABLED: "false", VISION_MODEL: "local-text-only" });
pumpJobsDuringSuite(env, SUITE);
pumpJobsDuringSuite(blind, BLIND_SUITE);

type Place = { team: string; channel: string };

async function paste(
  place: Place,
  text: string,
  files: unknown[],
  opts: { to?: typeof env; dm?: boolean } = {},
): Promise<void> {
  const event = slackMessageEvent({
    ...place,
    user: "UALICE",
    text,
    files,
    ts: distinctSlackTs(),
    ...(opts.dm ? { channelType: "im" as const } : {}),
  });
  expect((await callWorker(opts.to ?? env, await signedSlackRequest(event.body))).status).toBe(200);
}

const answers = (place: Place, n: number) =>
  eventually(
    async () => ((await slackPosts(place.channel)).length >= n ? slackPosts(place.channel) : undefined),
    20_000,
    `${n} answers`,
  );
type Recorded = { messages: { role: string; content: string; images?: string[] }[] };
const picturesIn = (request: Recorded) => request.messages.flatMap((m) => m.images ?? []);

describe("pictures and files pasted on Slack", () => {
  it("answers a screenshot with a question from the picture itself", async () => {
    const place = newSlackPlace("FS");
    const shot = await slackFile({ name: "error.png", png: { width: 640, height: 360, colour: "#dc1e1e" } });
    await paste(place, `<@${BOT_USER_ID}> what's this error? shot-${place.id}`, [shot]);
    const [answer] = await answers(place, 1);
    expect(answer!.text).toContain("PNG picture, 640×360, mostly red");
    const [request] = (await modelRequests(`shot-${place.id}`)) as Recorded[];
    expect(picturesIn(request!)).toHaveLength(1);
    expect(picturesIn(request!)[0]).toMatch(/^data:image\/png;base64,/);
    expect(request!.messages.at(-1)!.content).toContain("[image: error.png, 640×360, from UALICE] (attached)");
  });

  it("answers a picture sent alone in a DM", async () => {
    const place = { team: newSlackPlace("FD").team, channel: `D${newSlackPlace("FD").id}` };
    const photo = await slackFile({ name: "photo.png", png: { width: 200, height: 100, colour: "#1e3cdc" } });
    await paste(place, "", [photo], { dm: true });
    const [answer] = await answers(place, 1);
    expect(answer!.text).toContain("PNG picture, 200×100, mostly blue");
  });

  it("reads a pasted log into the data block, keeping its end, and names a file it cannot read", async () => {
    const place = newSlackPlace("FL");
    const log = `${"boot ok\n".repeat(20_000)}FATAL disk full tail-${place.id}\n`;
    const logFile = await slackFile({ name: "server.log", type: "text/plain", base64: base64Text(log) });
    const pdf = await slackFile({ name: "report.pdf", type: "application/pdf", base64: base64Text("%PDF-1.4") });
    await paste(place, `<@${BOT_USER_ID}> why did it crash? log-${place.id}`, [logFile, pdf]);
    await answers(place, 1);
    const [request] = await modelRequests(`log-${place.id}`);
    const file = dataBlockRecords(request!).find((r) => "file" in r) as {
      file: { name: string; log: boolean; text: string };
    };
    expect(file.file).toMatchObject({ name: "server.log", log: true });
    expect(file.file.text).toContain(`FATAL disk full tail-${place.id}`);
    expect(file.file.text.startsWith("…")).toBe(true);
    expect(request!.messages.at(-1)!.content).toContain("[file: report.pdf, from UALICE]");
  });

  it("sends only the newest message's pictures, the older ones as lines, within the per-message limits", async () => {
    const place = newSlackPlace("FO");
    const first = await slackFile({ name: "one.png", png: { width: 300, height: 200, colour: "#1eaa3c" } });
    await paste(place, `<@${BOT_USER_ID}> first one-${place.id}`, [first]);
    await answers(place, 1);
    const images = await Promise.all(
      ["a", "b", "c"].map((n) => slackFile({ name: `${n}.png`, png: { width: 50, height: 50, colour: "#f0dc28" } })),
    );
    const big = await slackFile({
      name: "huge.png",
      png: { width: 4000, height: 4000, colour: "#000000", bottom: "#ffffff" },
    });
    const fake = await slackFile({ name: "fake.png", type: "image/png", base64: base64Text("not a picture at all") });
    await paste(place, `<@${BOT_USER_ID}> and these? two-${place.id}`, [images[0], images[1], big, fake, images[2]]);
    await answers(place, 2);
    const [request] = (await modelRequests(`two-${place.id}`)) as Recorded[];
    const text = request!.messages.map((m) => m.content).join("\n");
    // The older picture is a line of its message's record, no longer attached.
    expect(text).toContain(`first one-${place.id}\\n[image: one.png, 300×200, from UALICE]"}`);
    expect(text).toMatch(/huge\.png[^\]]*\] \(too large to show\)/);
    expect(text).toContain("[image: fake.png, from UALICE] (not a picture the model can read)");
    expect(text).toContain("[image: c.png, 50×50, from UALICE] (not shown: too many images in one message)");
    expect(picturesIn(request!)).toHaveLength(2);
  });

  it("sends a thread's parent's picture when the thread's question brings none", async () => {
    const place = newSlackPlace("FT");
    const shot = await slackFile({ name: "parent.png", png: { width: 90, height: 60, colour: "#28c8dc" } });
    const parentTs = distinctSlackTs();
    const parent = slackMessageEvent({
      ...place,
      user: "UALICE",
      text: `<@${BOT_USER_ID}> look at this`,
      files: [shot],
      ts: parentTs,
    });
    expect((await callWorker(env, await signedSlackRequest(parent.body))).status).toBe(200);
    await answers(place, 1);
    const reply = slackMessageEvent({
      ...place,
      user: "UBOB",
      text: `<@${BOT_USER_ID}> what's this error? thread-${place.id}`,
      threadTs: parentTs,
      ts: distinctSlackTs(),
    });
    expect((await callWorker(env, await signedSlackRequest(reply.body))).status).toBe(200);
    const inThread = await answers(place, 2);
    expect(inThread.at(-1)!.text).toContain("PNG picture, 90×60, mostly cyan");
    const [request] = (await modelRequests(`thread-${place.id}`)) as Recorded[];
    expect(picturesIn(request!)).toHaveLength(1);
    expect(request!.messages[1]!.content).toContain("[image: parent.png, 90×60, from UALICE] (attached)");
  });

  it("answers from the text with a model that cannot see images, and says so once per conversation", async () => {
    const place = newSlackPlace("FB");
    for (const n of [1, 2]) {
      const shot = await slackFile({ name: `s${n}.png`, png: { width: 64, height: 64, colour: "#828282" } });
      await paste(place, `<@${BOT_USER_ID}> what is this? blind${n}-${place.id}`, [shot], { to: blind });
      await answers(place, n);
    }
    const [first, second] = await slackPosts(place.channel);
    expect(first!.text.startsWith(IMAGES_UNSEEN_NOTICE)).toBe(true);
    expect(second!.text).not.toContain(IMAGES_UNSEEN_NOTICE);
    expect(second!.text).toContain("(local model)");
  });
});
