import { describe, expect, it } from "vitest";

import { addressBucket, clientAddress } from "./client-address";

describe("clientAddress", () => {
  it("uses the connection's peer and ignores X-Forwarded-For unless proxies are trusted", () => {
    expect(clientAddress({ peerAddress: "198.51.100.7", forwardedFor: "10.9.9.9", trustedProxies: 0 })).toBe(
      "198.51.100.7",
    );
    expect(clientAddress({ peerAddress: undefined, forwardedFor: undefined, trustedProxies: 0 })).toBe("unknown");
  });

  it("behind one proxy, takes the address that proxy appended, not what the client wrote", () => {
    expect(clientAddress({ peerAddress: "127.0.0.1", forwardedFor: "6.6.6.6, 198.51.100.7", trustedProxies: 1 })).toBe(
      "198.51.100.7",
    );
    expect(clientAddress({ peerAddress: "127.0.0.1", forwardedFor: "198.51.100.7", trustedProxies: 1 })).toBe(
      "198.51.100.7",
    );
  });

  it("behind two proxies, counts two from the right", () => {
    expect(
      clientAddress({ peerAddress: "127.0.0.1", forwardedFor: "6.6.6.6, 198.51.100.7, 192.0.2.1", trustedProxies: 2 }),
    ).toBe("198.51.100.7");
  });

  it("falls back to the peer when a trusted proxy sent no header", () => {
    expect(clientAddress({ peerAddress: "127.0.0.1", forwardedFor: undefined, trustedProxies: 1 })).toBe("127.0.0.1");
    expect(clientAddress({ peerAddress: "127.0.0.1", forwardedFor: " , ", trustedProxies: 1 })).toBe("127.0.0.1");
  });
});

describe("addressBucket", () => {
  it("counts an IPv6 address by its /64, however it is written", () => {
    const network = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:0db8:0001:0002:ffff:ffff:ffff:ffff",
      "[2001:db8:1:2:a::b]",
      "2001:db8:1:2::1%eth0",
      "2001:db8:1:2::10.0.0.1",
    ])
      expect(addressBucket(address), address).toBe(network);
    expect(addressBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
  });

  it("keeps IPv4 addresses apart, IPv4-mapped ones as IPv4", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("203.0.113.8")).not.toBe(addressBucket("203.0.113.7"));
  });

  it("leaves what is not an address as it is", () => {
    expect(addressBucket("unknown")).toBe("unknown");
  });
});
