import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../app-env.ts";
import { limitBody } from "./body-limit.ts";

const app = new Hono<AppEnv>();
app.post("/x", limitBody(1024), async (c) => c.json({ bytes: (await c.req.arrayBuffer()).byteLength }));

describe("the body limit", () => {
  it("lets a body of the limit through and refuses one byte more with 413 and a JSON error", async () => {
    const ok = await app.request("/x", { method: "POST", body: "a".repeat(1024) });
    expect(await ok.json()).toEqual({ bytes: 1024 });
    const tooLarge = await app.request("/x", { method: "POST", body: "a".repeat(1025) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ error: "request body too large" });
  });

  it("counts a streamed body that says no length", async () => {
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode("b".repeat(600)));
        controller.close();
      },
    });
    const res = await app.request("/x", { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
  });
});
