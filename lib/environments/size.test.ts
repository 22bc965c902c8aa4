import { describe, expect, it } from "vitest";

import { formatSize } from "./size";

describe("formatSize", () => {
  it("says bytes below a kilobyte and one decimal below a hundred units", () => {
    expect(formatSize(0)).toBe("0 bytes");
    expect(formatSize(1)).toBe("1 byte");
    expect(formatSize(1023)).toBe("1023 bytes");
    expect(formatSize(1024)).toBe("1.0 KB");
    expect(formatSize(12.4 * 1024 * 1024)).toBe("12.4 MB");
    expect(formatSize(150 * 1024 * 1024)).toBe("150 MB");
    expect(formatSize(1.3 * 1024 ** 3)).toBe("1.3 GB");
  });
});
