import { Redis } from "@upstash/redis";
import { describe, expect, inject, it } from "vitest";
import { Keyring } from "../../lib/secrets/keyring.ts";
import { Sealer } from "../../lib/secrets/seal.ts";
import type { Installation } from "../../lib/installation.ts";
import { openInstallation } from "../../lib/tenants/installations.ts";
import { resealInstallations } from "../../lib/tenants/rekey.ts";
import { sealedAsBefore } from "../support/previous-release.ts";

const OLD = "j9Bq+GR42d31ZfaMXifcWY3jhoQh1xdioBTH7U2d31E=";
const NEW = "hGcLb0d3Z3JmOTY2aW1sb2NhbC1vbmx5LWtleS0wMDE=";
const PREFIX = `t-rekey-${Date.now()}`;

const installation = (tenant: string, botToken: string): Installation => ({
  tenant,
  botToken,
  botUserId: "UBOT",
  scopes: [],
  installedAt: 1,
});
const key = (tenant: string) => `${PREFIX}:install:slack|${tenant}`;

describe("npm run tokens:rotate-key", () => {
  it("re-encrypts every installation under the new key, bound to its tenant, so that the old key can go", async () => {
    const redis = new Redis({ url: inject("redisRestUrl"), token: inject("redisRestToken") });
    const oldKeyring = new Keyring(OLD);
    const before = new Sealer(oldKeyring, "stored-token");
    await redis.set(key("T1"), await before.seal(JSON.stringify(installation("T1", "a")), "slack|T1"));
    // Stored by the previous release, bound to nothing: sealed anew, bound.
    await redis.set(
      key("T2"),
      await sealedAsBefore(oldKeyring, "stored-token", JSON.stringify(installation("T2", "b"))),
    );
    // T1's installation copied under T3's key: never sealed for T3.
    const copied = await sealedAsBefore(oldKeyring, "stored-token", JSON.stringify(installation("T1", "a")));
    await redis.set(key("T3"), copied);
    await redis.set(`${PREFIX}:conv:slack|T1|C1|:state`, "{}");

    const rotating = new Sealer(new Keyring(NEW, [OLD]), "stored-token");
    expect(await resealInstallations(redis, PREFIX, rotating)).toEqual({ seen: 3, resealed: 2, refused: 1 });
    expect(await resealInstallations(redis, PREFIX, rotating)).toEqual({ seen: 3, resealed: 0, refused: 1 });

    const after = new Sealer(new Keyring(NEW), "stored-token");
    expect(
      (await openInstallation(after, { platform: "slack", tenant: "T1" }, String(await redis.get(key("T1"))))).botToken,
    ).toBe("a");
    expect(
      (await openInstallation(after, { platform: "slack", tenant: "T2" }, String(await redis.get(key("T2"))))).botToken,
    ).toBe("b");
    expect(await after.isCurrent(String(await redis.get(key("T2"))))).toBe(true);
    expect(await redis.get(key("T3"))).toBe(copied);
    await redis.del(key("T1"), key("T2"), key("T3"), `${PREFIX}:conv:slack|T1|C1|:state`);
  });
});
