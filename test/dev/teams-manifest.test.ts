/**
 * @module
 * `npm run teams:manifest` (dev/teams-manifest.ts): the app package is a zip whose entries' checksums hold, its
 * manifest names the bot in the scopes Parley serves with the consent to receive every message and the Worker's
 * host as valid domain, its icons are the sizes the schema asks (the outline transparent), the same settings make
 * the same bytes, and a missing or malformed setting is named in one line.
 */
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodePngPixels } from "../../dev/files/png.ts";
import { teamsAppPackage } from "../../dev/teams-manifest.ts";

const APP_ID = "9c1e6a2d-4b7f-4e3a-8d5c-2f0b1a7e6c34";
const env = { TEAMS_APP_ID: APP_ID, PUBLIC_BASE_URL: "https://parley.example.workers.dev/", BOT_NAME: "Parley" };

/** The stored entries of a zip, read from its central directory; each entry's CRC-32 checked. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    expect(crc32(data) >>> 0, name).toBe(crc);
    entries.set(name, data);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

describe("npm run teams:manifest", () => {
  it("writes a package of the manifest and its icons, the bot in its scopes with consent to every message", () => {
    const entries = unzip(teamsAppPackage(env));
    expect([...entries.keys()]).toEqual(["manifest.json", "color.png", "outline.png"]);
    const manifest = JSON.parse(entries.get("manifest.json")!.toString("utf8"));
    expect(manifest).toMatchObject({
      manifestVersion: "1.17",
      id: APP_ID,
      name: { short: "Parley" },
      icons: { color: "color.png", outline: "outline.png" },
      bots: [{ botId: APP_ID, scopes: ["personal", "team", "groupChat"], supportsFiles: true }],
      validDomains: ["parley.example.workers.dev"],
      webApplicationInfo: { id: APP_ID },
      authorization: {
        permissions: {
          resourceSpecific: [
            { name: "ChannelMessage.Read.Group", type: "Application" },
            { name: "ChatMessage.Read.Chat", type: "Application" },
          ],
        },
      },
    });
    expect(decodePngPixels(entries.get("color.png")!)).toMatchObject({ width: 192, height: 192 });
    const outline = entries.get("outline.png")!;
    // IHDR: width, height, bit depth 8, colour type 6 (RGBA: the outline is drawn on transparency).
    expect([outline.readUInt32BE(16), outline.readUInt32BE(20), outline[24], outline[25]]).toEqual([32, 32, 8, 6]);
  });

  it("makes the same bytes from the same settings", () => {
    expect(teamsAppPackage(env).equals(teamsAppPackage(env))).toBe(true);
  });

  it("names a missing or malformed setting in one line", () => {
    expect(() => teamsAppPackage({})).toThrow("TEAMS_APP_ID and PUBLIC_BASE_URL are not set");
    expect(() => teamsAppPackage({ ...env, TEAMS_APP_ID: "parley" })).toThrow(
      "TEAMS_APP_ID must be the bot's Microsoft app id (a GUID)",
    );
    expect(() => teamsAppPackage({ ...env, PUBLIC_BASE_URL: "http://parley.example" })).toThrow("PUBLIC_BASE_URL");
  });
});
