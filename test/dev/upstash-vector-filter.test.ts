/**
 * @module
 * The stand-in's metadata filter language: every operator Parley uses, precedence, nested keys, clear errors for a
 * malformed filter; and the same filters through the real client, on a query and on a delete.
 */
import { randomUUID } from "node:crypto";
import { Index } from "@upstash/vector";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { matchesFilter } from "../../dev/upstash-vector/filter-match.ts";
import { parseFilter } from "../../dev/upstash-vector/filter-parse.ts";
import { freePort } from "../../dev/ports.ts";
import { startVectorStandIn, type RunningVectorStandIn } from "../../dev/upstash-vector/server.ts";

const PEOPLE: Record<string, Record<string, unknown>> = {
  ana: {
    name: "Ana",
    age: 31,
    city: "Lisbon",
    admin: true,
    tags: ["dev", "ops"],
    address: { zip: "1000" },
    visits: [3, 9],
  },
  ben: { name: "Ben", age: 25, city: "Berlin", admin: false, tags: ["design"], address: { zip: "10115" } },
  cyd: { name: "Cyd", age: 40, city: "London", tags: [] },
  dan: { name: "dan", age: 25.5 },
};

function who(filter: string): string[] {
  const tree = parseFilter(filter);
  return Object.entries(PEOPLE)
    .filter(([, metadata]) => matchesFilter(tree, metadata))
    .map(([id]) => id);
}

describe("the filter language", () => {
  it.each([
    ["city = 'Berlin'", ["ben"]],
    ['city != "Berlin"', ["ana", "cyd"]],
    ["age < 25.5", ["ben"]],
    ["age <= 25.5", ["ben", "dan"]],
    ["age > 31", ["cyd"]],
    ["age >= 31", ["ana", "cyd"]],
    ["city IN ('Lisbon', 'London')", ["ana", "cyd"]],
    ["city NOT IN ('Lisbon', 'London')", ["ben"]],
    ["name GLOB 'C*'", ["cyd"]],
    ["name GLOB '[a-d]?n'", ["dan"]],
    ["name NOT GLOB '[^A]*'", ["ana"]],
    ["tags CONTAINS 'ops'", ["ana"]],
    ["tags NOT CONTAINS 'ops'", ["ben", "cyd"]],
    ["address.zip = '10115'", ["ben"]],
    ["tags[0] = 'design'", ["ben"]],
    ["visits[#-1] = 9", ["ana"]],
    ["HAS FIELD address", ["ana", "ben"]],
    ["HAS NOT FIELD tags", ["dan"]],
    ["admin = true", ["ana"]],
    ["admin = 0", ["ben"]],
    ["", ["ana", "ben", "cyd", "dan"]],
  ])("%s matches %j", (filter, expected) => {
    expect(who(filter)).toEqual(expected);
  });

  it("binds AND tighter than OR, and parentheses override it", () => {
    expect(who("city = 'Berlin' OR city = 'Lisbon' AND age > 35")).toEqual(["ben"]);
    expect(who("(city = 'Berlin' OR city = 'Lisbon') AND age < 30")).toEqual(["ben"]);
  });

  it("reads operators, AND/OR and true/false in any case", () => {
    expect(who("city in ('Berlin') or admin = TRUE and tags contains 'dev'")).toEqual(["ana", "ben"]);
  });

  it("treats a condition on a missing field as false, even a negated one", () => {
    expect(who("city != 'Paris'")).toEqual(["ana", "ben", "cyd"]);
  });

  it("keeps a quote inside a string when it is escaped, and never evaluates anything", () => {
    expect(matchesFilter(parseFilter("note = 'it\\'s'"), { note: "it's" })).toBe(true);
    expect(matchesFilter(parseFilter("note = 'process.exit(1)'"), { note: "x" })).toBe(false);
  });

  it.each([
    ["city = ", "expected a value"],
    ["city = 'Berlin", "unterminated string"],
    ["city ~ 'x'", 'unexpected character "~"'],
    ["city LIKE 'x'", "expected an operator"],
    ["(city = 'x'", 'expected ")"'],
    ["city = 'x' 'y'", "expected AND, OR or the end"],
    ["name GLOB 5", "GLOB needs a quoted pattern"],
    ["a..b = 1", "malformed field name"],
  ])("refuses %j saying %j", (filter, problem) => {
    expect(() => parseFilter(filter)).toThrow(problem);
  });
});

describe("filters through the client", () => {
  let server: RunningVectorStandIn;
  let index: Index;
  beforeAll(async () => {
    server = await startVectorStandIn({
      port: await freePort(),
      redisUrl: inject("redisUrl"),
      keyPrefix: `vector-filter-${randomUUID()}:`,
      indexType: "DENSE",
      dimension: 2,
    });
    index = new Index({ url: server.url, token: server.token, retry: false, enableTelemetry: false });
    await index.upsert(Object.entries(PEOPLE).map(([id, metadata]) => ({ id, vector: [1, 1], metadata })));
  });
  afterAll(async () => {
    await server.close();
  });

  it("narrows a query to the vectors whose metadata matches", async () => {
    const hits = await index.query({ vector: [1, 1], topK: 10, filter: "tags CONTAINS 'dev' OR age >= 40" });
    expect(hits.map((h) => h.id).sort()).toEqual(["ana", "cyd"]);
  });

  it("deletes exactly the matching vectors", async () => {
    expect(await index.delete({ filter: "age = 25 OR age = 25.5" })).toEqual({ deleted: 2 });
    expect((await index.fetch(["ana", "ben", "cyd", "dan"])).map((v) => v?.id ?? null)).toEqual([
      "ana",
      null,
      "cyd",
      null,
    ]);
  });

  it("answers a malformed filter with 400 and where the problem is", async () => {
    await expect(index.query({ vector: [1, 1], topK: 1, filter: "age >" })).rejects.toThrow(
      'Invalid filter "age >": expected a value',
    );
  });
});
