import { describe, expect, it } from "vitest";

import { withOthersMessage } from "./with-others";

describe("withOthersMessage", () => {
  it("says how many items other annotators hold and that they come back", () => {
    expect(withOthersMessage(1)).toBe("1 item is with another annotator; it comes back here if the lease runs out.");
    expect(withOthersMessage(2)).toBe("2 items are with other annotators; they come back here if a lease runs out.");
    expect(withOthersMessage(1200)).toBe(
      "1,200 items are with other annotators; they come back here if a lease runs out.",
    );
  });
});
