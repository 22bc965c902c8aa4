import { describe, expect, it } from "vitest";

import type { Language } from "@/lib/records/languages";
import { skipWithoutSandbox } from "@/lib/testing/sandbox-gate";

import { createLocalBackend } from "./local";
import { compareLibraries, REFERENCE_LIBRARIES } from "./reference-libraries";
import { getRecipe } from "./recipes";
import { runSteadily } from "./steady";

// Records in the shape AutoCodeBench generates them, each using a library the reference image ships
// beside its toolchain: they pass there, so they must pass here.
const RECORDS: { name: string; language: Language; solution: string; test: string }[] = [
  {
    name: "python with numpy",
    language: "python",
    solution: [
      "import numpy as np",
      "",
      "def solve_linear_system(a, b):",
      '    """Solves a x = b and returns x rounded to 6 places."""',
      "    x = np.linalg.solve(np.array(a, dtype=float), np.array(b, dtype=float))",
      "    return np.round(x, 6).tolist()",
      "",
      "def moving_average(values, window):",
      "    kernel = np.ones(window) / window",
      "    return np.convolve(np.asarray(values, dtype=float), kernel, mode='valid').tolist()",
      "",
    ].join("\n"),
    test: [
      "def test():",
      "    assert solve_linear_system([[2, 1], [1, 3]], [3, 5]) == [0.8, 1.4]",
      "    assert moving_average([1, 2, 3, 4, 5], 2) == [1.5, 2.5, 3.5, 4.5]",
      "    assert moving_average([4, 4, 4], 3) == [4.0]",
      "",
      'if __name__ == "__main__":',
      "    test()",
      "",
    ].join("\n"),
  },
  {
    name: "python with pandas",
    language: "python",
    solution: [
      "import pandas as pd",
      "",
      "def revenue_by_region(rows):",
      '    """Total revenue per region, largest first, as a list of (region, total)."""',
      '    frame = pd.DataFrame(rows, columns=["region", "units", "price"])',
      '    frame["revenue"] = frame["units"] * frame["price"]',
      '    totals = frame.groupby("region")["revenue"].sum().sort_values(ascending=False)',
      "    return [(region, float(total)) for region, total in totals.items()]",
      "",
    ].join("\n"),
    test: [
      "def test():",
      '    rows = [("north", 3, 2.5), ("south", 1, 10.0), ("north", 2, 1.0), ("east", 4, 0.5)]',
      '    assert revenue_by_region(rows) == [("south", 10.0), ("north", 9.5), ("east", 2.0)]',
      "    assert revenue_by_region([]) == []",
      "",
      'if __name__ == "__main__":',
      "    test()",
      "",
    ].join("\n"),
  },
  {
    name: "C++ with Boost",
    language: "cpp",
    solution: [
      "#include <string>",
      "#include <vector>",
      "#include <boost/algorithm/string.hpp>",
      "#include <boost/multiprecision/cpp_int.hpp>",
      "",
      "using namespace std;",
      "",
      "vector<string> split_words(const string& line) {",
      "    string trimmed = boost::algorithm::trim_copy(line);",
      "    vector<string> words;",
      '    boost::algorithm::split(words, trimmed, boost::is_any_of(" ,"), boost::token_compress_on);',
      "    return words;",
      "}",
      "",
      "string factorial(int n) {",
      "    boost::multiprecision::cpp_int result = 1;",
      "    for (int i = 2; i <= n; ++i) result *= i;",
      "    return result.str();",
      "}",
      "",
    ].join("\n"),
    test: [
      "#include <cassert>",
      "",
      "int main() {",
      '    vector<string> words = split_words("  alpha, beta  gamma ");',
      "    assert(words.size() == 3);",
      '    assert(words[1] == "beta");',
      '    assert(factorial(25) == "15511210043330985984000000");',
      "    return 0;",
      "}",
      "",
    ].join("\n"),
  },
  {
    name: "C++ with nlohmann-json",
    language: "cpp",
    solution: [
      "#include <string>",
      "#include <nlohmann/json.hpp>",
      "",
      "using json = nlohmann::json;",
      "",
      "std::string add_total(const std::string& text) {",
      "    json order = json::parse(text);",
      "    double total = 0;",
      '    for (const auto& item : order["items"]) total += item["price"].get<double>() * item["qty"].get<int>();',
      '    order["total"] = total;',
      "    return order.dump();",
      "}",
      "",
    ].join("\n"),
    test: [
      "#include <cassert>",
      "",
      "int main() {",
      '    json out = json::parse(add_total(R"({"id":7,"items":[{"price":2.5,"qty":2},{"price":1,"qty":3}]})"));',
      '    assert(out["total"] == 8.0);',
      '    assert(out["id"] == 7);',
      '    assert(json::parse(add_total(R"({"items":[]})"))["total"] == 0.0);',
      "    return 0;",
      "}",
      "",
    ].join("\n"),
  },
  {
    name: "C++ with Eigen",
    language: "cpp",
    solution: [
      "#include <eigen3/Eigen/Dense>",
      "",
      "double determinant3(const Eigen::Matrix3d& m) {",
      "    return m.determinant();",
      "}",
      "",
    ].join("\n"),
    test: [
      "#include <cassert>",
      "#include <cmath>",
      "",
      "int main() {",
      "    Eigen::Matrix3d m;",
      "    m << 2, 0, 0, 0, 3, 0, 0, 0, 4;",
      "    assert(std::abs(determinant3(m) - 24.0) < 1e-9);",
      "    return 0;",
      "}",
      "",
    ].join("\n"),
  },
  {
    name: "Java with Gson",
    language: "java",
    solution: [
      "import com.google.gson.Gson;",
      "import com.google.gson.JsonObject;",
      "import com.google.gson.JsonParser;",
      "",
      "public class InventoryCodec {",
      "    static class Item {",
      "        String name;",
      "        int count;",
      "        Item(String name, int count) { this.name = name; this.count = count; }",
      "    }",
      "",
      "    private final Gson gson = new Gson();",
      "",
      "    public String encode(String name, int count) {",
      "        return gson.toJson(new Item(name, count));",
      "    }",
      "",
      "    public int countOf(String json) {",
      "        JsonObject object = JsonParser.parseString(json).getAsJsonObject();",
      '        return object.get("count").getAsInt();',
      "    }",
      "}",
      "",
    ].join("\n"),
    test: [
      "import org.junit.jupiter.api.Test;",
      "import static org.junit.jupiter.api.Assertions.assertEquals;",
      "",
      "class InventoryCodecTest {",
      "    @Test",
      "    public void roundTrips() {",
      "        InventoryCodec codec = new InventoryCodec();",
      '        assertEquals("{\\"name\\":\\"bolt\\",\\"count\\":12}", codec.encode("bolt", 12));',
      '        assertEquals(12, codec.countOf(codec.encode("bolt", 12)));',
      "    }",
      "}",
      "",
    ].join("\n"),
  },
  {
    name: "shell with jq and bc",
    language: "shell",
    solution: [
      "average_price() {",
      '    local json="$1"',
      "    local sum count",
      "    sum=$(echo \"$json\" | jq '[.[].price] | add')",
      "    count=$(echo \"$json\" | jq 'length')",
      '    echo "scale=2; $sum / $count" | bc',
      "}",
      "",
    ].join("\n"),
    test: [
      'result=$(average_price \'[{"price": 3.5}, {"price": 4}]\')',
      '[ "$result" = "3.75" ] || { echo "got $result"; exit 1; }',
      "",
    ].join("\n"),
  },
];

const backend = createLocalBackend({ isUnsafe: false, concurrency: 2, memoryLimitMb: 1024, workDir: null });
const status = await backend.isolation();

describe.each(RECORDS)("the reference image's libraries: $name", ({ language, solution, test }) => {
  it.skipIf(skipWithoutSandbox(status.problem, status.problem ? undefined : language))(
    "PASSES in the local sandbox",
    async () => {
      const result = await runSteadily({ language, solution, test, timeoutMs: 30_000 }, backend.run);
      expect(result.outcome, `${result.stderr}\n${result.compileOutput ?? ""}`).toBe("PASSED");
    },
    300_000,
  );
});

describe("the libraries doctor lists", () => {
  it.skipIf(skipWithoutSandbox(status.problem))(
    "every reference library is found inside the sandbox, with a version",
    async () => {
      for (const language of ["python", "cpp", "shell", "java"] as const) {
        const probe = REFERENCE_LIBRARIES[language];
        expect(probe).toBeDefined();
        const run = await backend.runCommand(probe!.argv, { timeoutMs: 60_000, env: getRecipe(language).env });
        const libraries = compareLibraries(language, run.stdout);
        expect(
          libraries.filter((library) => library.skew === "missing"),
          language,
        ).toEqual([]);
      }
    },
    300_000,
  );

  it.skipIf(skipWithoutSandbox(status.problem, status.problem ? undefined : "python"))(
    "the Python libraries import inside the sandbox (OpenCV, pyarrow, scikit-learn, SciPy, statsmodels, …)",
    async () => {
      const result = await runSteadily(
        {
          language: "python",
          solution:
            "import cv2, pyarrow, sklearn, scipy.optimize, statsmodels.api, PIL, lxml.etree, bs4, yaml, requests, psutil, pytest\n",
          test: "assert cv2.__version__.startswith('4.')\nassert pyarrow.array([1, 2]).sum().as_py() == 3\n",
          timeoutMs: 30_000,
        },
        backend.run,
      );
      expect(result.outcome, result.stderr).toBe("PASSED");
    },
    300_000,
  );
});
