import { describe, expect, it } from "vitest";

import { queueReasons } from "./queue-reasons";
import { formatQueueCursor, parseQueueCursor } from "./queues";

describe("queue reasons", () => {
  it("say, for each queue the item is in, why", () => {
    const item = { n: 3, nValid: 1, finalValid: false, criticPass: true, executableValid: true };
    expect(queueReasons(item, ["annotators", "critic", "execution", "flagged"])).toEqual({
      annotators: "1 valid vs 2 invalid",
      critic: "humans say invalid, the critic passes it",
      execution: "labelled invalid, but the tests pass and the critic passes it",
      flagged: "an annotator asked for review",
    });
    expect(queueReasons({ ...item, finalValid: true, criticPass: false }, ["critic", "execution"])).toEqual({
      critic: "humans say valid, the critic fails it",
      execution: "labelled valid, but the canonical solution fails its own tests",
    });
    expect(queueReasons(item, [])).toEqual({});
  });
});

describe("queue cursor", () => {
  it("travels as reasons.position and refuses anything else", () => {
    expect(parseQueueCursor(formatQueueCursor({ reasons: 2, position: 1042 }))).toEqual({ reasons: 2, position: 1042 });
    for (const text of [undefined, "", "2", "2.", ".5", "-1.5", "2.5.1", "2.99999999999", "a.b"])
      expect(parseQueueCursor(text)).toBeNull();
  });
});
