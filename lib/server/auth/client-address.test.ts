import { describe, expect, it } from "vitest";

import { clientAddress } from "./client-address";

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
