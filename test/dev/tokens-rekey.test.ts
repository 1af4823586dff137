import { Redis } from "@upstash/redis";
import { describe, expect, inject, it } from "vitest";
import { Keyring } from "../../lib/secrets/keyring.ts";
import { Sealer } from "../../lib/secrets/seal.ts";
import { resealInstallations } from "../../lib/tenants/rekey.ts";

const OLD = "j9Bq+GR42d31ZfaMXifcWY3jhoQh1xdioBTH7U2d31E=";
const NEW = "hGcLb0d3Z3JmOTY2aW1sb2NhbC1vbmx5LWtleS0wMDE=";
const PREFIX = `t-rekey-${Date.now()}`;

describe("npm run tokens:rotate-key", () => {
  it("re-encrypts every installation under the new key, so that the old key can go", async () => {
    const redis = new Redis({ url: inject("redisRestUrl"), token: inject("redisRestToken") });
    const before = new Sealer(new Keyring(OLD), "stored-token");
    await redis.set(`${PREFIX}:install:slack|T1`, await before.seal('{"botToken":"a"}'));
    await redis.set(`${PREFIX}:install:slack|T2`, await before.seal('{"botToken":"b"}'));
    await redis.set(`${PREFIX}:conv:slack|T1|C1|:state`, "{}");

    const rotating = new Sealer(new Keyring(NEW, [OLD]), "stored-token");
    expect(await resealInstallations(redis, PREFIX, rotating)).toEqual({ seen: 2, resealed: 2 });
    expect(await resealInstallations(redis, PREFIX, rotating)).toEqual({ seen: 2, resealed: 0 });

    const after = new Sealer(new Keyring(NEW), "stored-token");
    expect(await after.open(String(await redis.get(`${PREFIX}:install:slack|T1`)))).toBe('{"botToken":"a"}');
    expect(await after.open(String(await redis.get(`${PREFIX}:install:slack|T2`)))).toBe('{"botToken":"b"}');
    await redis.del(`${PREFIX}:install:slack|T1`, `${PREFIX}:install:slack|T2`, `${PREFIX}:conv:slack|T1|C1|:state`);
  });
});
