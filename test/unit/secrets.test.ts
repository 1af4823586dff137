import { describe, expect, it } from "vitest";
import { errorMessage } from "../../lib/log.ts";
import { Keyring } from "../../lib/secrets/keyring.ts";
import { Pseudonyms } from "../../lib/secrets/pseudonym.ts";
import { SealError, Sealer } from "../../lib/secrets/seal.ts";
import { sealedAsBefore } from "../support/previous-release.ts";

const KEY_A = btoa("A".repeat(32));
const KEY_B = btoa("B".repeat(32));

describe("sealed values", () => {
  it("open to what was sealed, name their key, and differ each time", async () => {
    const sealer = new Sealer(new Keyring(KEY_A), "job-payload");
    const one = await sealer.seal('{"to":"+15551234567"}', "slack|T1");
    const two = await sealer.seal('{"to":"+15551234567"}', "slack|T1");
    expect(one).not.toBe(two);
    expect(one).toMatch(/^v2\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(one).not.toContain("5551234567");
    expect(await sealer.open(one, "slack|T1")).toBe('{"to":"+15551234567"}');
  });

  it("still open after a rotation, with the old key among the previous keys, and not without it", async () => {
    const sealed = await new Sealer(new Keyring(KEY_A), "job-payload").seal("hello", "x");
    expect(await new Sealer(new Keyring(KEY_B, [KEY_A]), "job-payload").open(sealed, "x")).toBe("hello");
    await expect(new Sealer(new Keyring(KEY_B), "job-payload").open(sealed, "x")).rejects.toThrow(
      /TOKEN_ENCRYPTION_PREVIOUS_KEYS/,
    );
    // The new key seals from then on.
    const rotating = new Sealer(new Keyring(KEY_B, [KEY_A]), "job-payload");
    const resealed = await rotating.seal("hello", "x");
    expect(resealed.split(".")[1]).not.toBe(sealed.split(".")[1]);
    expect([await rotating.isCurrent(sealed), await rotating.isCurrent(resealed)]).toEqual([false, true]);
  });

  it("refuse a changed byte, a value sealed for another use or bound elsewhere, and anything that is not a sealed value", async () => {
    const keyring = new Keyring(KEY_A);
    const sealed = await new Sealer(keyring, "job-payload").seal("hello", "slack|TA");
    const body = sealed.split(".")[2]!;
    const flipped = `${sealed.slice(0, -body.length)}${body[0] === "A" ? "B" : "A"}${body.slice(1)}`;
    await expect(new Sealer(keyring, "job-payload").open(flipped, "slack|TA")).rejects.toBeInstanceOf(SealError);
    await expect(new Sealer(keyring, "stored-token").open(sealed, "slack|TA")).rejects.toBeInstanceOf(SealError);
    await expect(new Sealer(keyring, "job-payload").open(sealed, "slack|TB")).rejects.toBeInstanceOf(SealError);
    // The binding is all that follows the header: no split of the same characters opens it.
    await expect(new Sealer(keyring, "job-payload").open(sealed, "slack|TA ")).rejects.toBeInstanceOf(SealError);
    await expect(new Sealer(keyring, "job-payload").open("hello", "slack|TA")).rejects.toBeInstanceOf(SealError);
  });

  it("sealed by the previous release (bound to nothing) open only where the caller asks for them, whatever the binding", async () => {
    const keyring = new Keyring(KEY_A);
    const old = await sealedAsBefore(keyring, "stored-token", "hello");
    const sealer = new Sealer(keyring, "stored-token");
    await expect(sealer.open(old, "slack|TA")).rejects.toBeInstanceOf(SealError);
    expect(await sealer.open(old, "slack|TA", { unbound: true })).toBe("hello");
    expect(await sealer.isCurrent(old)).toBe(false);
  });
});

describe("pseudonyms", () => {
  it("are stable under one key, differ between ids and keys, and never show the id", async () => {
    const a = new Pseudonyms(new Keyring(KEY_A));
    const p = await a.of("+15551234567");
    expect(p).toMatch(/^p-[0-9a-f]{16}$/);
    expect(await a.of("+15551234567")).toBe(p);
    expect(await a.of("+15551234568")).not.toBe(p);
    expect(await new Pseudonyms(new Keyring(KEY_B)).of("+15551234567")).not.toBe(p);
  });

  it("an HTTP tool gets are not the log lines': a tool endpoint cannot line them up with the logs", async () => {
    const keyring = new Keyring(KEY_A);
    const logged = await new Pseudonyms(keyring).of("+15551234567");
    const forTools = await new Pseudonyms(keyring, "tool-pseudonym").of("+15551234567");
    expect(forTools).toMatch(/^p-[0-9a-f]{16}$/);
    expect(forTools).not.toBe(logged);
  });
});

describe("errors in log lines", () => {
  it("show the class and the HTTP status or Redis code, never the message", () => {
    const upstash = Object.assign(
      new Error('ERR fault, command was: ["evalsha","abc",3,"conv:twilio|AC1|+15005550006|+15551234567|"]'),
      { name: "UpstashError" },
    );
    expect(errorMessage(upstash)).toBe("UpstashError ERR");
    expect(errorMessage(Object.assign(new Error("body: +15551234567"), { name: "QstashError", status: 500 }))).toBe(
      "QstashError HTTP 500",
    );
    expect(errorMessage(new TypeError("secret text"))).toBe("TypeError");
    expect(errorMessage("a thrown string with a number +15551234567")).toBe("string");
  });
});
