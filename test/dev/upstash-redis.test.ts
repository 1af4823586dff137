import { createHash } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { freePort } from "../../dev/ports.ts";
import { DYNAMIC_KEY_ERROR } from "../../dev/upstash-redis/key-locking.ts";
import { startRedisBridge, type RunningBridge } from "../../dev/upstash-redis/server.ts";

const TOKEN = "bridge-test-token";
// Other test files share this redis-server: every key here starts with a prefix of this file's own.
const prefix = `upstash-bridge-test:${crypto.randomUUID()}:`;
const key = (name: string) => prefix + name;

let bridge: RunningBridge;
let redis: Redis;

beforeAll(async () => {
  bridge = await startRedisBridge({ port: await freePort(), redisUrl: inject("redisUrl"), token: TOKEN });
  redis = new Redis({ url: bridge.url, token: TOKEN });
});

afterAll(async () => {
  await bridge?.close();
});

/** Speaks the REST protocol by hand, for what the client hides (status codes, raw encoding). */
function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(bridge.url + path, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", ...headers },
    body,
  });
}

describe("the real @upstash/redis client against the bridge", () => {
  test("strings, numbers and JSON values come back as they were stored", async () => {
    await redis.set(key("greeting"), "hello", { ex: 60 });
    await redis.set(key("count"), 41);
    await redis.set(key("json"), { user: "ada", tags: ["a", "b"], n: 1.5 });
    expect(await redis.get(key("greeting"))).toBe("hello");
    expect(await redis.incr(key("count"))).toBe(42);
    expect(await redis.get(key("count"))).toBe(42);
    expect(await redis.get(key("json"))).toEqual({ user: "ada", tags: ["a", "b"], n: 1.5 });
    expect(await redis.ttl(key("greeting"))).toBeGreaterThan(0);
    expect(await redis.get(key("missing"))).toBeNull();
  });

  test("a hash comes back whole from hgetall", async () => {
    await redis.hset(key("hash"), { name: "ada", visits: 3, profile: { lang: "fr" } });
    expect(await redis.hgetall(key("hash"))).toEqual({ name: "ada", visits: 3, profile: { lang: "fr" } });
    expect(await redis.hget(key("hash"), "name")).toBe("ada");
    expect(await redis.hgetall(key("no-such-hash"))).toBeNull();
  });

  test("lists keep their order", async () => {
    await redis.rpush(key("list"), "one", "two", "three");
    await redis.lpush(key("list"), "zero");
    expect(await redis.lrange(key("list"), 0, -1)).toEqual(["zero", "one", "two", "three"]);
    expect(await redis.llen(key("list"))).toBe(4);
  });

  test("a sorted set returns its members in score order, with scores", async () => {
    await redis.zadd(key("zset"), { score: 2.5, member: "b" }, { score: 1, member: "a" }, { score: 10, member: "c" });
    expect(await redis.zrange(key("zset"), 0, -1)).toEqual(["a", "b", "c"]);
    expect(await redis.zrange(key("zset"), 0, -1, { withScores: true })).toEqual(["a", 1, "b", 2.5, "c", 10]);
    expect(await redis.zscore(key("zset"), "b")).toBe(2.5);
  });

  test("emoji, Chinese and a NUL byte survive the round trip byte for byte", async () => {
    const value = "a\u0000b 😀 中文";
    await redis.set(key("unicode"), value);
    expect(await redis.get(key("unicode"))).toBe(value);
    expect(await redis.strlen(key("unicode"))).toBe(Buffer.byteLength(value, "utf8"));
    await redis.hset(key("unicode-hash"), { 键: "值 🎉" });
    expect(await redis.hgetall(key("unicode-hash"))).toEqual({ 键: "值 🎉" });
  });

  test("an explicit pipeline answers each command, and one failing command does not fail the others", async () => {
    await redis.set(key("word"), "not a number");
    const results = await redis
      .pipeline()
      .set(key("p1"), "v1")
      .incr(key("word"))
      .get(key("p1"))
      .exec({ keepErrors: true });
    expect(results.map((r) => r.result)).toEqual(["OK", undefined, "v1"]);
    expect(results[1]?.error).toContain("ERR value is not an integer");
  });

  test("calls made in the same tick are auto-pipelined and each gets its own answer", async () => {
    const auto = new Redis({ url: bridge.url, token: TOKEN, enableAutoPipelining: true });
    const names = Array.from({ length: 50 }, (_, i) => key(`auto:${i}`));
    await Promise.all(names.map((name, i) => auto.set(name, i)));
    const values = await Promise.all(names.map((name) => auto.get(name)));
    expect(values).toEqual(names.map((_, i) => i));
  });

  test("concurrent transactions never interleave", async () => {
    const [a, b] = [key("tx:a"), key("tx:b")];
    const results = await Promise.all(Array.from({ length: 20 }, () => redis.multi().incr(a).incr(b).exec()));
    // Inside one MULTI…EXEC both counters move together, so each transaction sees equal values.
    for (const [first, second] of results) expect(first).toBe(second);
    expect(results.map(([first]) => first).sort((x, y) => Number(x) - Number(y))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(await redis.mget(a, b)).toEqual([20, 20]);
  });

  test("a script runs on first use through the EVALSHA → EVAL fallback, then by its hash", async () => {
    // The prefix in a comment makes the script new to this redis-server, so its first EVALSHA meets NOSCRIPT.
    const source = `-- ${prefix}\nreturn redis.call("INCRBY", KEYS[1], ARGV[1])`;
    const script = redis.createScript<number>(source);
    const sha = createHash("sha1").update(source).digest("hex");
    expect(await redis.scriptExists(sha)).toEqual([0]);
    expect(await script.exec([key("scripted")], ["5"])).toBe(5);
    expect(await redis.scriptExists(sha)).toEqual([1]);
    expect(await script.evalsha([key("scripted")], ["2"])).toBe(7);
  });

  test("a Redis error reaches the caller with Redis's own text", async () => {
    await redis.set(key("text"), "abc");
    await expect(redis.incr(key("text"))).rejects.toThrow("ERR value is not an integer or out of range");
  });

  test("a wrong token is refused", async () => {
    const intruder = new Redis({ url: bridge.url, token: "wrong-token" });
    await expect(intruder.get(key("greeting"))).rejects.toThrow("Unauthorized");
  });
});

describe("the REST protocol on the wire", () => {
  test("with base64 encoding every string is encoded, OK included, while numbers and null pass through", async () => {
    const base64 = { "Upstash-Encoding": "base64" };
    expect(await (await post("/", JSON.stringify(["set", key("raw"), "hi"]), base64)).json()).toEqual({
      result: "T0s=",
    });
    const answer = await post(
      "/pipeline",
      JSON.stringify([
        ["get", key("raw")],
        ["strlen", key("raw")],
        ["get", key("raw-missing")],
        ["echo", "x"],
      ]),
      base64,
    );
    expect(await answer.json()).toEqual([{ result: "aGk=" }, { result: 2 }, { result: null }, { result: "eA==" }]);
  });

  test("bytes that are not valid UTF-8 come back exactly under base64", async () => {
    const setBytes = JSON.stringify([
      "eval",
      "return redis.call('SET', KEYS[1], string.char(0, 255, 1))",
      1,
      key("bytes"),
    ]);
    expect((await post("/", setBytes)).status).toBe(200);
    const answer = await post("/", JSON.stringify(["get", key("bytes")]), { "Upstash-Encoding": "base64" });
    expect(await answer.json()).toEqual({ result: Buffer.from([0, 255, 1]).toString("base64") });
  });

  test("numbers and booleans are sent to Redis in their string form", async () => {
    await post("/", JSON.stringify(["hset", key("forms"), "n", 1.25, "yes", true]));
    expect(await (await post("/", JSON.stringify(["hgetall", key("forms")]))).json()).toEqual({
      result: ["n", "1.25", "yes", "true"],
    });
  });

  test("a bad token, bad JSON and a non-array body are refused with a JSON error", async () => {
    const wrongToken = await post("/", '["ping"]', { Authorization: "Bearer nope" });
    expect(wrongToken.status).toBe(401);
    expect(await wrongToken.json()).toHaveProperty("error");
    expect((await post("/", "[1,")).status).toBe(400);
    expect((await post("/", '{"cmd":"ping"}')).status).toBe(400);
    expect((await post("/pipeline", '["ping"]')).status).toBe(400);
  });

  test("commands Upstash does not serve over REST are refused with a clear reason", async () => {
    for (const command of [
      ["blpop", key("q"), 0],
      ["watch", key("q")],
      ["subscribe", "ch"],
      ["select", 1],
    ]) {
      const answer = await post("/", JSON.stringify(command));
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(/not allowed/);
    }
    expect(await (await post("/", '["ping"]')).json()).toEqual({ result: "PONG" });
  });

  test("an aborted transaction answers 400 and changes nothing", async () => {
    const answer = await post("/multi-exec", JSON.stringify([["set", key("aborted"), "1"], ["no-such-command"]]));
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toContain("EXECABORT");
    expect(await redis.exists(key("aborted"))).toBe(0);
  });

  test("a request body over 10 MB is refused", async () => {
    const huge = JSON.stringify(["set", key("huge"), "x".repeat(10 * 1024 * 1024)]);
    expect((await post("/", huge)).status).toBe(413);
    expect(await redis.exists(key("huge"))).toBe(0);
  });

  test("a large value just under the limit is stored and read back intact", async () => {
    const large = "é".repeat(2 * 1024 * 1024);
    await redis.set(key("large"), large);
    expect(await redis.get(key("large"))).toBe(large);
  });
});

describe("scripts that declare allow-key-locking, as Upstash runs them", () => {
  const LOCKED = "#!lua flags=allow-key-locking\n";
  /** A comment with the prefix makes each script new to this redis-server, so its first EVALSHA meets NOSCRIPT. */
  const locked = (body: string) => redis.createScript<unknown>(`${LOCKED}-- ${prefix}\n${body}`);

  test("run on first use through EVALSHA → NOSCRIPT → EVAL under the digest the client computed", async () => {
    const source = `${LOCKED}-- ${prefix} digest\nredis.call('SET', KEYS[1], ARGV[1])\nreturn redis.call('GET', KEYS[1])`;
    const script = redis.createScript<string>(source);
    const sha = createHash("sha1").update(source).digest("hex");
    expect(await redis.scriptExists(sha)).toEqual([0]);
    expect(await script.exec([key("locked")], ["one"])).toBe("one");
    expect(await redis.scriptExists(sha)).toEqual([1]);
    expect(await script.evalsha([key("locked")], ["two"])).toBe("two");
  });

  test("fail with Upstash's error when they touch a key they were not given, and change nothing", async () => {
    const given = key("given");
    const script = locked("redis.call('SET', KEYS[1], 'x')\nredis.call('SET', KEYS[1] .. ':other', 'x')");
    await expect(script.exec([given], [])).rejects.toThrow(`${DYNAMIC_KEY_ERROR}${given}:other`);
    expect(await redis.exists(`${given}:other`)).toBe(0);
  });

  test("check every key of multi-key commands, counted and after keywords too", async () => {
    const [a, b, other] = [key("ka"), key("kb"), key("not-given")];
    await expect(locked(`return redis.call('MGET', KEYS[1], '${other}')`).exec([a], [])).rejects.toThrow(
      `${DYNAMIC_KEY_ERROR}${other}`,
    );
    await expect(
      locked(`return redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], '${other}')`).exec([a, b], []),
    ).rejects.toThrow(`${DYNAMIC_KEY_ERROR}${other}`);
    await expect(
      locked(`return redis.call('XREAD', 'STREAMS', KEYS[1], '${other}', '0', '0')`).exec([a], []),
    ).rejects.toThrow(`${DYNAMIC_KEY_ERROR}${other}`);
    expect(await locked("return redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], KEYS[3])").exec([a, b, other], [])).toBe(
      0,
    );
  });

  test("hand redis.pcall the refusal as an error reply", async () => {
    const other = key("pcall-other");
    expect(await locked(`return redis.pcall('GET', '${other}').err`).exec([key("pcall")], [])).toBe(
      `${DYNAMIC_KEY_ERROR}${other}`,
    );
  });

  test("refuse FLUSHDB and FLUSHALL", async () => {
    await redis.set(key("survivor"), "still here");
    for (const command of ["FLUSHDB", "FLUSHALL"]) {
      await expect(locked(`return redis.call('${command}')`).exec([], [])).rejects.toThrow(
        `${command} is not allowed in Lua scripts`,
      );
    }
    expect(await redis.get(key("survivor"))).toBe("still here");
  });

  test("report Redis errors at the line of the script they come from", async () => {
    await expect(locked("local x = 1\nerror('boom')").exec([], [])).rejects.toThrow("user_script:4: boom");
  });

  test("are the only scripts a bridge that requires the flag runs", async () => {
    const strict = await startRedisBridge({
      port: await freePort(),
      redisUrl: inject("redisUrl"),
      token: TOKEN,
      requireKeyLocking: true,
    });
    try {
      const client = new Redis({ url: strict.url, token: TOKEN });
      await expect(client.createScript(`-- ${prefix}\nreturn 1`).exec([], [])).rejects.toThrow(
        "does not declare '#!lua flags=allow-key-locking'",
      );
      expect(await client.createScript(`${LOCKED}-- ${prefix} strict\nreturn 1`).exec([], [])).toBe(1);
    } finally {
      await strict.close();
    }
  });
});
