import { describe, expect, it } from "vitest";
import { clientOf } from "../../lib/limits/client-address.ts";

describe("the client a limit counts", () => {
  it("is an IPv4 address as it is, and an IPv6 address's /64 however the address is written", () => {
    expect(clientOf("203.0.113.9")).toBe("203.0.113.9");
    expect(clientOf("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:0DB8:0001:0002:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:db8:1:2:3:4:5:6%eth0")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(clientOf("::1")).toBe("0:0:0:0::/64");
    expect(clientOf("2001:db8:1:2::203.0.113.9")).toBe("2001:db8:1:2::/64");
  });

  it("is the IPv4 client for an IPv4 address written as IPv6", () => {
    expect(clientOf("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientOf("::ffff:cb00:7109")).toBe("203.0.113.9");
  });

  it("is the text itself, bounded, for what is not an address", () => {
    expect(clientOf("unknown")).toBe("unknown");
    expect(clientOf("2001:db8::1::2")).toBe("2001:db8::1::2");
    expect(clientOf("1:2:3:4:5:6:7:8:9")).toBe("1:2:3:4:5:6:7:8:9");
    expect(clientOf("256.1.1.1")).toBe("256.1.1.1");
    expect(clientOf("x".repeat(500))).toHaveLength(64);
  });
});
