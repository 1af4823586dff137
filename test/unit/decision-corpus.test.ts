import { describe, expect, it } from "vitest";
import { convertLog } from "../../bench/decision/convert-log.ts";
import { parseLog, readLogs } from "../../bench/decision/corpus.ts";
import { dataPath } from "../../bench/decision/paths.ts";

describe("the decision bench's corpus", () => {
  it("ships the dev split with the bench, gzipped, and reads it log by log", async () => {
    const sources: string[] = [];
    for await (const log of readLogs(dataPath("dev"))) sources.push(log.source);
    expect(sources).toHaveLength(10);
    expect(sources[0]).toBe("2004-11-15_03");
  });

  it("converts a log of the irc-disentanglement corpus (raw lines and reply annotations) into the bench's format", () => {
    const raw = [
      "[03:10] <yohannes> can anyone recommend an app for *.rar files?",
      "=== foo [~foo@example.org]  has joined #ubuntu",
      "=== yohannes scrolls up",
      "[03:11] <Hikaru79> yohannes, why not  unrar?",
    ].join("\n");
    const line = convertLog("2004-11-15_03", "dev", `${raw}\n`, "0 0 - \n0 3 - \n");
    expect(JSON.parse(line)).toEqual({
      source: "2004-11-15_03",
      split: "dev",
      messages: [
        { i: 0, time: "03:10", author: "yohannes", text: "can anyone recommend an app for *.rar files?" },
        { i: 1, system: "=== foo [~foo@example.org]  has joined #ubuntu" },
        { i: 2, system: "=== yohannes scrolls up" },
        { i: 3, time: "03:11", author: "Hikaru79", text: "yohannes, why not  unrar?" },
      ],
      links: [
        [0, 0],
        [0, 3],
      ],
    });
    const log = parseLog(JSON.parse(line));
    expect(log.lines.map((l) => l.author)).toEqual(["yohannes", "Hikaru79"]);
    expect(log.parents.get(3)).toEqual([0]);
  });
});
