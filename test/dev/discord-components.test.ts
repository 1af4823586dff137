/**
 * @module
 * Buttons on the Discord REST fake, as Discord takes them (dev/fakes/discord/components.ts): action rows of 1-5
 * buttons, at most 5 rows, a `custom_id` of at most 100 characters and unique on the message, refused with 50035
 * otherwise; and a press answered with an update of its message (type 7), or with a deferred update (6) that keeps
 * it, the pressed message becoming the press's `@original`.
 */
import { describe, expect, it } from "vitest";
import { discordFakeDuringSuite } from "../support/discord-rest-fake.ts";

const discord = discordFakeDuringSuite();

const CHANNEL = "600000000000000020";
const APP = "100000000000000001";
const BOT = { Authorization: "Bot test-bot-token", "Content-Type": "application/json" };
const post = (body: unknown) =>
  fetch(`${discord.url}/channels/${CHANNEL}/messages`, { method: "POST", headers: BOT, body: JSON.stringify(body) });
const button = (custom_id: string, style = 3) => ({ type: 2, style, label: "Approve", custom_id });
const row = (...buttons: unknown[]) => ({ type: 1, components: buttons });
const refusal = async (res: Response) => ({ status: res.status, body: await res.json() });

describe("components on a message", () => {
  it("takes two buttons in a row and keeps them on the message", async () => {
    const res = await post({ content: "May I?", components: [row(button("a:approve"), button("a:cancel", 4))] });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    const [stored] = (await (await fetch(`${discord.origin}/__messages?id=${id}`)).json()) as {
      message: { components: unknown[] };
    }[];
    expect(stored!.message.components).toHaveLength(1);
  });

  it.each([
    ["six buttons in a row", [row(...[1, 2, 3, 4, 5, 6].map((n) => button(`b${n}`)))], "components.0.components"],
    ["six rows", [1, 2, 3, 4, 5, 6].map((n) => row(button(`r${n}`))), "components"],
    ["a custom_id of 101 characters", [row(button("x".repeat(101)))], "components.0.components.0.custom_id"],
    ["a button without a custom_id", [row({ type: 2, style: 3, label: "Go" })], "components.0.components.0.custom_id"],
    ["two buttons with one custom_id", [row(button("same"), button("same"))], "components.0.components.1.custom_id"],
    ["a button outside a row", [button("alone")], "components.0.type"],
    ["a label of 81 characters", [row({ ...button("l"), label: "y".repeat(81) })], "components.0.components.0.label"],
  ])("refuses %s with 50035", async (_name, components, field) => {
    const { status, body } = await refusal(await post({ content: "May I?", components }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 50035, errors: { [field]: { _errors: [expect.any(Object)] } } });
  });
});

describe("a press of a button", () => {
  async function pressed(answer: unknown): Promise<{ content: string; components?: unknown[] }> {
    const made = (await (await post({ content: "May I?", components: [row(button("a:approve"))] })).json()) as {
      id: string;
    };
    const token = `press-${made.id}`;
    const report = {
      id: "700000000000000001",
      application_id: APP,
      token,
      channel_id: CHANNEL,
      message_id: made.id,
      answer: { status: 200, body: answer },
      answered_after_ms: 20,
    };
    const res = await fetch(`${discord.origin}/__interactions`, { method: "POST", body: JSON.stringify(report) });
    expect(await res.json()).toMatchObject({ acknowledged: true, original: { id: made.id } });
    const original = await fetch(`${discord.url}/webhooks/${APP}/${token}/messages/@original`);
    return (await original.json()) as { content: string; components?: unknown[] };
  }

  it("is the pressed message's update with a type 7, which takes its components away", async () => {
    expect(await pressed({ type: 7, data: { content: "Approved", components: [] } })).toMatchObject({
      content: "Approved",
      components: [],
    });
  });

  it("leaves the message as it was with a type 6", async () => {
    expect(await pressed({ type: 6 })).toMatchObject({ content: "May I?", components: [expect.any(Object)] });
  });
});
