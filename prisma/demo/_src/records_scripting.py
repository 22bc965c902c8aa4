"""Python, JavaScript and TypeScript records."""

RECORDS = []


def add(**kw):
    RECORDS.append(kw)


# ---------------------------------------------------------------- python ---

add(
    language="python", title="Run-length encoding", difficulty="easy",
    extra={"index": 3, "seed": "py-rle-0413", "tags": ["strings"]},
    question=r'''
**Problem: Run-Length Encoding**

Write a Python function named `rle_encode(s: str) -> str` that compresses a string with run-length encoding.

Each maximal run of the same character is written as the character followed by the length of the run in decimal. Runs are written in the order they occur. Characters are compared exactly (case-sensitive), and every character, including spaces and digits, is encoded the same way.

**Input Format:**
- `s`: a string of printable ASCII characters, possibly empty.

**Output Format:**
- The encoded string. The empty string encodes to the empty string.

**Example Usage:**
```python
assert rle_encode("aaabcc") == "a3b1c2"
assert rle_encode("") == ""
```
''',
    solution=r'''
def rle_encode(s: str) -> str:
    if not s:
        return ""
    parts = []
    prev = s[0]
    count = 1
    for ch in s[1:]:
        if ch == prev:
            count += 1
        else:
            parts.append(f"{prev}{count}")
            prev = ch
            count = 1
    parts.append(f"{prev}{count}")
    return "".join(parts)
''',
    demo=r'''
def test():
    assert rle_encode("aaabcc") == "a3b1c2"
    assert rle_encode("") == ""

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert rle_encode("aaabcc") == "a3b1c2"
    assert rle_encode("") == ""
    assert rle_encode("a") == "a1"
    assert rle_encode("abc") == "a1b1c1"
    assert rle_encode("zzzzzzzzzzzz") == "z12"
    assert rle_encode("aabbaa") == "a2b2a2"
    assert rle_encode("  ") == " 2"
    assert rle_encode("AaA") == "A1a1A1"
    assert rle_encode("111") == "13"

if __name__ == "__main__":
    test()
''',
    valid=True, flaw=None,
    explanation="Valid: the encoding, case sensitivity and the empty-string result are all stated, and every expected value follows from them.",
    critic=dict(name="rle_encode"),
    reasoning='''
The statement defines rle_encode, the solution defines it and both tests call it. Expected values: "aaabcc" -> a3 b1 c2, correct; "zzzzzzzzzzzz" has 12 z's -> z12, correct; "111" -> "13" is odd-looking but follows the rule that digits are encoded like any character, which the statement says explicitly. Empty string handled and specified. No randomness, no floats. Pass.
''',
)

add(
    language="python", title="Merge intervals", difficulty="medium",
    extra={"index": 11, "tags": ["arrays", "sorting"]},
    question=r'''
**Problem: Merge Overlapping Intervals**

Write a Python function `merge_intervals(intervals: list[list[int]]) -> list[list[int]]`.

Each interval is a pair `[start, end]` with `start <= end`, describing the closed range of integers from `start` to `end`. Merge all intervals that overlap, including intervals that only touch at an endpoint (`[1, 3]` and `[3, 5]` merge into `[1, 5]`). Intervals such as `[1, 2]` and `[3, 4]` do not touch and stay separate.

The input is not necessarily sorted. Return the merged intervals sorted by their start. An empty input returns an empty list.

**Example Usage:**
```python
assert merge_intervals([[1, 3], [2, 6], [8, 10], [15, 18]]) == [[1, 6], [8, 10], [15, 18]]
assert merge_intervals([[1, 4], [4, 5]]) == [[1, 5]]
```
''',
    solution=r'''
def merge_intervals(intervals):
    if not intervals:
        return []
    ordered = sorted(intervals, key=lambda iv: (iv[0], iv[1]))
    merged = [list(ordered[0])]
    for start, end in ordered[1:]:
        last = merged[-1]
        if start <= last[1]:
            last[1] = max(last[1], end)
        else:
            merged.append([start, end])
    return merged
''',
    demo=r'''
def test():
    assert merge_intervals([[1, 3], [2, 6], [8, 10], [15, 18]]) == [[1, 6], [8, 10], [15, 18]]
    assert merge_intervals([[1, 4], [4, 5]]) == [[1, 5]]

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert merge_intervals([[1, 3], [2, 6], [8, 10], [15, 18]]) == [[1, 6], [8, 10], [15, 18]]
    assert merge_intervals([[1, 4], [4, 5]]) == [[1, 5]]
    assert merge_intervals([]) == []
    assert merge_intervals([[5, 7]]) == [[5, 7]]
    assert merge_intervals([[6, 8], [1, 9], [2, 4]]) == [[1, 9]]
    assert merge_intervals([[1, 2], [3, 4]]) == [[1, 2], [3, 4]]
    assert merge_intervals([[-5, -1], [-3, 2]]) == [[-5, 2]]
    assert merge_intervals([[0, 0], [0, 0]]) == [[0, 0]]
    assert merge_intervals([[10, 20], [1, 5], [5, 10]]) == [[1, 20]]

if __name__ == "__main__":
    test()
''',
    valid=True, flaw=None,
    explanation="Valid: touching intervals, unsorted input and the empty case are all specified; the tests check exactly those rules.",
    critic=dict(name="merge_intervals", style="string"),
    reasoning='''
Names consistent. The touching case [1,4],[4,5] -> [1,5] is stated explicitly, and [1,2],[3,4] staying separate is stated too, so the full test's non-touching case is covered. Negative ranges are ordinary integers. No issues.
''',
)

add(
    language="python", title="LRU cache", difficulty="medium",
    extra={"index": 27, "seed": "py-lru-77", "tags": ["design", "hash-map"]},
    question=r'''
**Problem: Least-Recently-Used Cache**

Implement a Python class `LRUCache` with:

- `LRUCache(capacity: int)` — creates a cache holding at most `capacity` entries. A capacity of 0 means the cache never stores anything.
- `get(key: int) -> int` — returns the value for `key`, or `-1` if the key is not present. A successful `get` marks the key as most recently used.
- `put(key: int, value: int) -> None` — inserts or updates the value for `key` and marks it as most recently used. If the cache then holds more than `capacity` entries, the least recently used entry is removed.

**Example Usage:**
```python
cache = LRUCache(2)
cache.put(1, 1)
cache.put(2, 2)
assert cache.get(1) == 1
cache.put(3, 3)          # evicts key 2
assert cache.get(2) == -1
assert cache.get(3) == 3
```
''',
    solution=r'''
from collections import OrderedDict


class LRUCache:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self._data = OrderedDict()

    def get(self, key: int) -> int:
        if key not in self._data:
            return -1
        self._data.move_to_end(key)
        return self._data[key]

    def put(self, key: int, value: int) -> None:
        if self.capacity <= 0:
            return
        if key in self._data:
            self._data.move_to_end(key)
        self._data[key] = value
        if len(self._data) > self.capacity:
            self._data.popitem(last=False)
''',
    demo=r'''
def test():
    cache = LRUCache(2)
    cache.put(1, 1)
    cache.put(2, 2)
    assert cache.get(1) == 1
    cache.put(3, 3)
    assert cache.get(2) == -1
    assert cache.get(3) == 3

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    cache = LRUCache(2)
    cache.put(1, 1)
    cache.put(2, 2)
    assert cache.get(1) == 1
    cache.put(3, 3)
    assert cache.get(2) == -1
    assert cache.get(3) == 3

    # updating a key refreshes it
    cache = LRUCache(2)
    cache.put(1, 1)
    cache.put(2, 2)
    cache.put(1, 10)
    cache.put(3, 3)
    assert cache.get(2) == -1
    assert cache.get(1) == 10

    # capacity one
    cache = LRUCache(1)
    cache.put(1, 1)
    cache.put(2, 2)
    assert cache.get(1) == -1
    assert cache.get(2) == 2

    # capacity zero stores nothing
    cache = LRUCache(0)
    cache.put(1, 1)
    assert cache.get(1) == -1

    # get on an empty cache
    assert LRUCache(3).get(42) == -1

    # get refreshes recency
    cache = LRUCache(2)
    cache.put(1, 1)
    cache.put(2, 2)
    cache.get(1)
    cache.put(3, 3)
    assert cache.get(2) == -1
    assert cache.get(1) == 1
    assert cache.get(3) == 3

if __name__ == "__main__":
    test()
''',
    valid=True, flaw=None,
    explanation="Valid: capacity 0, missing keys (-1) and recency updates on get and put are all specified and tested consistently.",
    critic=dict(name="LRUCache"),
    reasoning='''
Class name LRUCache and methods get/put match the statement. The capacity-zero case in the full test is specified ("never stores anything"). Eviction order checked against the rule that both get and put refresh recency. Deterministic. Pass.
''',
)

add(
    language="python", title="Grid shortest path", difficulty="hard",
    extra={"index": 40, "tags": ["graphs", "bfs"]},
    question=r'''
**Problem: Shortest Path in a Grid**

Write a Python function `shortest_path(grid: list[str]) -> int`.

The grid is a list of equal-length strings. Each character is one cell:
- `'S'` — the start cell (exactly one),
- `'E'` — the end cell (exactly one),
- `'.'` — an open cell,
- `'#'` — a wall.

From a cell you may move one step up, down, left or right onto any cell that is not a wall and stays inside the grid. Return the minimum number of steps needed to go from `S` to `E`, or `-1` if `E` cannot be reached.

If the grid does not contain both an `S` and an `E`, raise `ValueError`.

**Example Usage:**
```python
assert shortest_path(["S.E"]) == 2
assert shortest_path(["S#E"]) == -1
```
''',
    solution=r'''
from collections import deque


def shortest_path(grid):
    start = end = None
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == "S":
                start = (r, c)
            elif ch == "E":
                end = (r, c)
    if start is None or end is None:
        raise ValueError("grid must contain S and E")
    rows, cols = len(grid), len(grid[0])
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == end:
            return dist[(r, c)]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] != "#" and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                queue.append((nr, nc))
    return -1
''',
    demo=r'''
def test():
    assert shortest_path(["S.E"]) == 2
    assert shortest_path(["S#E"]) == -1

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert shortest_path(["S.E"]) == 2
    assert shortest_path(["S#E"]) == -1
    assert shortest_path(["SE"]) == 1
    assert shortest_path(["S..", ".#.", "..E"]) == 4
    assert shortest_path(["S.#.", "..#.", "#...", "##.E"]) == 6
    assert shortest_path(["S", "#", "E"]) == -1
    assert shortest_path(["S#...", ".#.#.", ".#.#.", "...#E"]) == 13
    try:
        shortest_path(["S.."])
        assert False, "expected ValueError when E is missing"
    except ValueError:
        pass

if __name__ == "__main__":
    test()
''',
    valid=True, flaw=None,
    explanation="Valid: unreachable (-1) and missing S/E (ValueError) are specified; the maze answers (4, 6, 13) check out by hand.",
    critic=dict(name="shortest_path", overrides={
        "Exception Swallowing": "The try/except in the full test only catches ValueError, which the statement requires; the `assert False` inside it is not swallowed.",
    }),
    reasoning='''
shortest_path is named consistently. BFS with 4-neighbourhood matches the statement. I traced the 4x5 snake maze: down the left column, along the bottom to column 2, up column 2, across the top and down the right column = 13 steps. The try/except block catches only ValueError and the statement asks for ValueError, so this is not exception swallowing. Pass.
''',
)

add(
    language="python", title="Mean and standard deviation", difficulty="easy",
    extra={"index": 52, "seed": "py-stats-5", "tags": ["math", "floats"]},
    question=r'''
**Problem: Summary Statistics**

Write a Python function `describe(values: list[float]) -> tuple[float, float]` that returns the mean and the population standard deviation of `values`, **each rounded to 2 decimal places with Python's built-in `round`**.

The population standard deviation is `sqrt(sum((x - mean)^2) / n)` where `n = len(values)`.

If `values` is empty, raise `ValueError`.

**Example Usage:**
```python
assert describe([2, 4, 4, 4, 5, 5, 7, 9]) == (5.0, 2.0)
assert describe([1, 2, 3, 4]) == (2.5, 1.12)
```
''',
    solution=r'''
import math


def describe(values):
    if not values:
        raise ValueError("values must not be empty")
    n = len(values)
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / n
    return (round(mean, 2), round(math.sqrt(variance), 2))
''',
    demo=r'''
def test():
    assert describe([2, 4, 4, 4, 5, 5, 7, 9]) == (5.0, 2.0)
    assert describe([1, 2, 3, 4]) == (2.5, 1.12)

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert describe([2, 4, 4, 4, 5, 5, 7, 9]) == (5.0, 2.0)
    assert describe([1, 2, 3, 4]) == (2.5, 1.12)
    assert describe([5]) == (5.0, 0.0)
    assert describe([-1, 1]) == (0.0, 1.0)
    assert describe([0.1, 0.2, 0.3]) == (0.2, 0.08)
    assert describe([10, 10, 10]) == (10.0, 0.0)
    assert describe([1, 1000]) == (500.5, 499.5)
    try:
        describe([])
        assert False, "expected ValueError"
    except ValueError:
        pass

if __name__ == "__main__":
    test()
''',
    valid=True, flaw=None,
    explanation="Valid: the statement requires rounding to 2 decimals with round(), so comparing the rounded results with == is exact and portable; the critic's precision flag is a false alarm.",
    critic=dict(name="describe", style="fenced",
                intro="After reviewing the problem, the canonical solution and the tests, here is the structured verdict.",
                fails={"Improper Precision Handling": "The tests compare floating-point results with `==` (e.g. `describe([0.1, 0.2, 0.3]) == (0.2, 0.08)`) instead of using a tolerance such as math.isclose; this is fragile across implementations."},
                key_points=["Float results are compared with exact equality.", "Suggest math.isclose with abs_tol=1e-9."]),
    reasoning='''
Function name describe is consistent. The tests compare float tuples with ==. Values like 0.1+0.2+0.3 are not exact in binary, so exact equality is risky; a different summation order could give a different last bit. Flagging improper precision handling. (The statement does mention rounding, but I still prefer a tolerance.)
''',
)

add(
    language="python", title="Count vowels", difficulty="easy",
    flaw="name-mismatch", valid=False, expected_execution="pass",
    extra={"index": 58, "tags": ["strings"]},
    question=r'''
**Problem: Count Vowels**

Write a Python function `count_vowels(text: str) -> int` that returns how many vowels `text` contains. The vowels are `a`, `e`, `i`, `o`, `u` in either case; `y` is not a vowel. All other characters are ignored.

**Example Usage:**
```python
assert count_vowels("Hello World") == 3
assert count_vowels("xyz") == 0
```
''',
    solution=r'''
def vowel_count(text: str) -> int:
    return sum(1 for ch in text.lower() if ch in "aeiou")
''',
    demo=r'''
def test():
    assert vowel_count("Hello World") == 3
    assert vowel_count("xyz") == 0

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert vowel_count("Hello World") == 3
    assert vowel_count("xyz") == 0
    assert vowel_count("") == 0
    assert vowel_count("AEIOU") == 5
    assert vowel_count("aAeEiIoOuU") == 10
    assert vowel_count("rhythm") == 0
    assert vowel_count("Programming is fun!") == 5
    assert vowel_count("12345 !?") == 0

if __name__ == "__main__":
    test()
''',
    explanation="The statement asks for `count_vowels`, but the solution and both tests use `vowel_count`; a solver who follows the statement fails every test with NameError. Spotted by comparing the statement's signature with the first line of the tests.",
    critic=dict(name="vowel_count", fails={
        "Naming/Signature Inconsistency": "The statement specifies `count_vowels(text)` while the solution and tests call `vowel_count(text)`.",
    }, key_points=["Function name in the statement (count_vowels) does not match the tests (vowel_count)."]),
    reasoning='''
Statement: count_vowels. Tests: vowel_count. A model implementing the statement would define count_vowels and every assert would raise NameError. Expected values themselves are fine ("Programming is fun!" has o, a, i, i, u = 5). Fail on naming.
''',
)

add(
    language="python", title="Distinct words", difficulty="easy",
    flaw="nondeterministic-test", valid=False, expected_execution="any",
    extra={"index": 63, "seed": "py-words-2", "tags": ["strings", "sets"]},
    question=r'''
**Problem: Distinct Words**

Write a Python function `distinct_words(text: str) -> list[str]` that returns the distinct words of `text`. Words are separated by whitespace and compared case-insensitively; return them in lowercase. Each distinct word appears exactly once in the result. **The order of the returned list is not specified.**

**Example Usage:**
```python
assert sorted(distinct_words("b a B")) == ["a", "b"]
assert distinct_words("") == []
```
''',
    solution=r'''
def distinct_words(text: str) -> list:
    return list(set(text.lower().split()))
''',
    demo=r'''
def test():
    assert sorted(distinct_words("b a B")) == ["a", "b"]
    assert distinct_words("") == []

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert sorted(distinct_words("b a B")) == ["a", "b"]
    assert distinct_words("") == []
    assert distinct_words("hello") == ["hello"]
    assert sorted(distinct_words("the cat and the hat")) == ["and", "cat", "hat", "the"]
    assert distinct_words("One one ONE") == ["one"]
    assert distinct_words("Red green RED") == ["green", "red"]
    assert len(distinct_words("a b c d e f")) == 6
    assert distinct_words("   ") == []

if __name__ == "__main__":
    test()
''',
    explanation="One full-test assert expects distinct_words(\"Red green RED\") == [\"green\", \"red\"], an order produced by list(set(...)) that changes between runs because Python randomises string hashing (about half of the runs fail); the statement even says the order is unspecified. Running the full test a few times gives different outcomes.",
    critic=dict(name="distinct_words", fails={
        "Randomness/Non-reproducible": "The full test compares `distinct_words(\"Red green RED\")` against a list in a fixed order, but the solution builds the result from a set; string hash randomisation makes the order differ between runs.",
    }, key_points=["Order-dependent asserts on set-derived output.", "Compare sorted lists or sets instead."]),
    reasoning='''
Demo test sorts the result, fine, and most full-test cases sort too. But `distinct_words("Red green RED") == ["green", "red"]` depends on set iteration order, which depends on PYTHONHASHSEED. Statement explicitly says order is unspecified, so the expected order is an artefact of one run. Non-reproducible.
''',
)

add(
    language="python", title="Second largest distinct value", difficulty="easy",
    flaw="solution-wrong", valid=False, expected_execution="fail",
    extra={"index": 71, "tags": ["arrays"]},
    question=r'''
**Problem: Second Largest Distinct Value**

Write a Python function `second_largest(nums: list[int]) -> int | None` that returns the second largest **distinct** value in `nums`. Duplicates count once: in `[5, 5, 3]` the second largest distinct value is `3`. If `nums` has fewer than two distinct values, return `None`.

**Example Usage:**
```python
assert second_largest([3, 1, 4, 2]) == 3
assert second_largest([7]) is None
```
''',
    solution=r'''
def second_largest(nums):
    if len(nums) < 2:
        return None
    ordered = sorted(nums)
    return ordered[-2]
''',
    demo=r'''
def test():
    assert second_largest([3, 1, 4, 2]) == 3
    assert second_largest([7]) is None

if __name__ == "__main__":
    test()
''',
    full=r'''
def test():
    assert second_largest([3, 1, 4, 2]) == 3
    assert second_largest([7]) is None
    assert second_largest([]) is None
    assert second_largest([5, 5, 3]) == 3
    assert second_largest([2, 2]) is None
    assert second_largest([-1, -5, -3]) == -3
    assert second_largest([10, 9, 10, 8]) == 9
    assert second_largest([1, 2]) == 1

if __name__ == "__main__":
    test()
''',
    explanation="The solution ignores the 'distinct' requirement: sorted(nums)[-2] returns 5 for [5, 5, 3] and 2 for [2, 2], so it fails its own full test. Running the full test shows the AssertionError.",
    critic=dict(name="second_largest"),
    reasoning='''
second_largest is used consistently. Statement explains the distinct rule with the [5, 5, 3] example and the None case. The tests check exactly these cases; expected values match the statement. No randomness or float issues. Pass.
''',
)

# ------------------------------------------------------------ javascript ---

add(
    language="javascript", title="camelCase to snake_case", difficulty="easy",
    extra={"index": 5, "tags": ["strings", "regex"]},
    question=r'''
**Problem: camelCase to snake_case**

Write a JavaScript function `camelToSnake(str)` that converts a camelCase or PascalCase identifier to snake_case:

1. Insert `_` between a lowercase letter or digit and a following uppercase letter.
2. In a run of uppercase letters followed by a lowercase letter, the last uppercase letter starts a new word (`XMLParser` → `xml_parser`).
3. Lowercase the result.

Characters that are already lowercase letters, digits or underscores are kept. The empty string returns the empty string.

**Example Usage:**
```javascript
const assert = require('assert');
assert.strictEqual(camelToSnake('helloWorld'), 'hello_world');
assert.strictEqual(camelToSnake('parseHTTPResponse'), 'parse_http_response');
```
''',
    solution=r'''
function camelToSnake(str) {
  return str
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
''',
    demo=r'''
const assert = require('assert');

const demoTesting = () => {
  assert.strictEqual(camelToSnake('helloWorld'), 'hello_world');
  assert.strictEqual(camelToSnake('parseHTTPResponse'), 'parse_http_response');
};

demoTesting();
''',
    full=r'''
const assert = require('assert');

const fullTesting = () => {
  assert.strictEqual(camelToSnake('helloWorld'), 'hello_world');
  assert.strictEqual(camelToSnake('parseHTTPResponse'), 'parse_http_response');
  assert.strictEqual(camelToSnake('getUserID'), 'get_user_id');
  assert.strictEqual(camelToSnake('XMLParser'), 'xml_parser');
  assert.strictEqual(camelToSnake('PascalCase'), 'pascal_case');
  assert.strictEqual(camelToSnake('already_snake'), 'already_snake');
  assert.strictEqual(camelToSnake('version2Update'), 'version2_update');
  assert.strictEqual(camelToSnake('A'), 'a');
  assert.strictEqual(camelToSnake(''), '');
};

fullTesting();
''',
    valid=True, flaw=None,
    explanation="Valid: the two word-break rules cover every case in the tests, including acronyms (getUserID, XMLParser) and digits.",
    critic=dict(name="camelToSnake"),
    reasoning='''
camelToSnake consistent. Checked the acronym cases against rule 2: parseHTTPResponse -> parse_http_response, XMLParser -> xml_parser; getUserID -> get_user_id uses rule 1 twice. version2Update relies on "digit followed by uppercase", stated in rule 1. Pass.
''',
)

add(
    language="javascript", title="Chunk an array", difficulty="easy",
    extra={"index": 14, "seed": "js-chunk-9"},
    question=r'''
**Problem: Chunk an Array**

Write a JavaScript function `chunkArray(arr, size)` that splits `arr` into consecutive chunks of length `size` and returns an array of those chunks. The last chunk may be shorter. The input array must not be modified.

If `size` is not a positive integer, throw a `RangeError`.

**Example Usage:**
```javascript
const assert = require('assert');
assert.deepStrictEqual(chunkArray([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
assert.deepStrictEqual(chunkArray([], 3), []);
```
''',
    solution=r'''
function chunkArray(arr, size) {
  if (!Number.isInteger(size) || size <= 0) {
    throw new RangeError('size must be a positive integer');
  }
  const chunks = [];
  for (let i = 0; i < arr.length; i += size) {
    chunks.push(arr.slice(i, i + size));
  }
  return chunks;
}
''',
    demo=r'''
const assert = require('assert');

const demoTesting = () => {
  assert.deepStrictEqual(chunkArray([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepStrictEqual(chunkArray([], 3), []);
};

demoTesting();
''',
    full=r'''
const assert = require('assert');

const fullTesting = () => {
  assert.deepStrictEqual(chunkArray([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepStrictEqual(chunkArray([], 3), []);
  assert.deepStrictEqual(chunkArray([1, 2, 3], 1), [[1], [2], [3]]);
  assert.deepStrictEqual(chunkArray([1, 2], 5), [[1, 2]]);
  assert.deepStrictEqual(chunkArray(['a', 'b', 'c', 'd'], 2), [['a', 'b'], ['c', 'd']]);
  const input = [1, 2, 3];
  chunkArray(input, 2);
  assert.deepStrictEqual(input, [1, 2, 3]);
  assert.throws(() => chunkArray([1], 0), RangeError);
  assert.throws(() => chunkArray([1], -2), RangeError);
  assert.throws(() => chunkArray([1], 1.5), RangeError);
};

fullTesting();
''',
    valid=True, flaw=None,
    explanation="Valid: the RangeError for non-positive and non-integer sizes and the no-mutation rule are stated; all expected chunks are correct.",
    critic=dict(name="chunkArray", style="string"),
    reasoning='''
chunkArray consistent. RangeError cases (0, -2, 1.5) are covered by "not a positive integer". No-mutation check corresponds to the statement. assert.throws is a proper check, not swallowing. Pass.
''',
)

add(
    language="javascript", title="Evaluate Reverse Polish Notation", difficulty="medium",
    extra={"index": 22, "tags": ["stack", "parsing"]},
    question=r'''
**Problem: Evaluate Reverse Polish Notation**

Write a JavaScript function `evaluateRPN(tokens)` that evaluates an arithmetic expression in Reverse Polish Notation and returns its integer value.

- `tokens` is an array of strings. Each token is an integer literal (e.g. `"42"`, `"-7"`) or one of the operators `+`, `-`, `*`, `/`.
- An operator pops the right operand `b`, then the left operand `a`, and pushes `a op b`.
- Division truncates toward zero (`7 / -2` is `-3`; `-1 / 2` is `0`).
- Throw `new Error('division by zero')` when dividing by zero.
- Throw `new Error('invalid expression')` if an operator lacks operands, a token is not an integer or operator, or more than one value remains at the end.

**Example Usage:**
```javascript
const assert = require('assert');
assert.strictEqual(evaluateRPN(['2', '1', '+', '3', '*']), 9);
assert.strictEqual(evaluateRPN(['4', '13', '5', '/', '+']), 6);
```
''',
    solution=r'''
function evaluateRPN(tokens) {
  const stack = [];
  for (const tok of tokens) {
    if (tok === '+' || tok === '-' || tok === '*' || tok === '/') {
      if (stack.length < 2) throw new Error('invalid expression');
      const b = stack.pop();
      const a = stack.pop();
      let r;
      if (tok === '+') r = a + b;
      else if (tok === '-') r = a - b;
      else if (tok === '*') r = a * b;
      else {
        if (b === 0) throw new Error('division by zero');
        r = Math.trunc(a / b);
        if (Object.is(r, -0)) r = 0;
      }
      stack.push(r);
    } else {
      if (!/^-?\d+$/.test(tok)) throw new Error('invalid expression');
      stack.push(Number(tok));
    }
  }
  if (stack.length !== 1) throw new Error('invalid expression');
  return stack[0];
}
''',
    demo=r'''
const assert = require('assert');

const demoTesting = () => {
  assert.strictEqual(evaluateRPN(['2', '1', '+', '3', '*']), 9);
  assert.strictEqual(evaluateRPN(['4', '13', '5', '/', '+']), 6);
};

demoTesting();
''',
    full=r'''
const assert = require('assert');

const fullTesting = () => {
  assert.strictEqual(evaluateRPN(['2', '1', '+', '3', '*']), 9);
  assert.strictEqual(evaluateRPN(['4', '13', '5', '/', '+']), 6);
  assert.strictEqual(
    evaluateRPN(['10', '6', '9', '3', '+', '-11', '*', '/', '*', '17', '+', '5', '+']),
    22
  );
  assert.strictEqual(evaluateRPN(['7', '-2', '/']), -3);
  assert.strictEqual(evaluateRPN(['-1', '2', '/']), 0);
  assert.strictEqual(evaluateRPN(['42']), 42);
  assert.strictEqual(evaluateRPN(['3', '4', '-']), -1);
  assert.throws(() => evaluateRPN(['1', '+']), /invalid expression/);
  assert.throws(() => evaluateRPN(['1', '2']), /invalid expression/);
  assert.throws(() => evaluateRPN(['1', 'x', '+']), /invalid expression/);
  assert.throws(() => evaluateRPN(['1', '0', '/']), /division by zero/);
};

fullTesting();
''',
    valid=True, flaw=None,
    explanation="Valid: truncation toward zero (including -1/2 = 0), both error messages and the leftover-operand rule are stated and tested.",
    critic=dict(name="evaluateRPN"),
    reasoning='''
evaluateRPN consistent. The long expression: 9+3=12, 12*-11=-132, 6/-132 truncates to 0, 10*0=0, +17=17, +5=22. Correct. -1/2 -> 0 is stated explicitly, so the strictEqual with 0 (not -0) is specified. Error messages match. Pass.
''',
)

add(
    language="javascript", title="Roman numerals to integer", difficulty="easy",
    flaw="wrong-expected-output", valid=False, expected_execution="fail",
    extra={"index": 31, "seed": "js-roman-1", "tags": ["strings", "math"]},
    question=r'''
**Problem: Roman Numeral to Integer**

Write a JavaScript function `romanToInt(s)` that converts a valid Roman numeral (1 to 3999) to an integer.

Symbols: `I`=1, `V`=5, `X`=10, `L`=50, `C`=100, `D`=500, `M`=1000. When a smaller symbol appears before a larger one it is subtracted (`IV` = 4, `IX` = 9, `XL` = 40, `XC` = 90, `CD` = 400, `CM` = 900); otherwise values are added.

**Example Usage:**
```javascript
const assert = require('assert');
assert.strictEqual(romanToInt('III'), 3);
assert.strictEqual(romanToInt('LVIII'), 58);
```
''',
    solution=r'''
function romanToInt(s) {
  const values = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const cur = values[s[i]];
    const next = i + 1 < s.length ? values[s[i + 1]] : 0;
    total += cur < next ? -cur : cur;
  }
  return total;
}
''',
    demo=r'''
const assert = require('assert');

const demoTesting = () => {
  assert.strictEqual(romanToInt('III'), 3);
  assert.strictEqual(romanToInt('LVIII'), 58);
};

demoTesting();
''',
    full=r'''
const assert = require('assert');

const fullTesting = () => {
  assert.strictEqual(romanToInt('III'), 3);
  assert.strictEqual(romanToInt('LVIII'), 58);
  assert.strictEqual(romanToInt('IV'), 4);
  assert.strictEqual(romanToInt('IX'), 9);
  assert.strictEqual(romanToInt('XL'), 40);
  assert.strictEqual(romanToInt('MCMXCIV'), 1995);
  assert.strictEqual(romanToInt('MMMCMXCIX'), 3999);
  assert.strictEqual(romanToInt('I'), 1);
};

fullTesting();
''',
    explanation="The full test expects romanToInt('MCMXCIV') to be 1995; it is 1994 (M + CM + XC + IV). The canonical solution returns 1994, so the full test fails with an AssertionError.",
    critic=dict(name="romanToInt", style="fenced", fails={
        "Other Issues": "The full test asserts romanToInt('MCMXCIV') === 1995, but by the stated rules MCMXCIV = 1000 + 900 + 90 + 4 = 1994.",
    }, key_points=["One expected value in the full test is arithmetically wrong (1995 instead of 1994)."]),
    reasoning='''
romanToInt consistent. Checking expected values: MMMCMXCIX = 3000+900+90+9 = 3999 ok. MCMXCIV = 1000+900+90+4 = 1994, test says 1995. The canonical solution computes 1994, so this test cannot pass. Fail (other issues).
''',
)

add(
    language="javascript", title="Median of an array", difficulty="easy",
    flaw="statement-incomplete", valid=False, expected_execution="pass",
    extra={"index": 36, "tags": ["math", "arrays"]},
    question=r'''
**Problem: Median**

Write a JavaScript function `median(nums)` that returns the median of an array of numbers. Sort a copy of the values in ascending numeric order; for an odd number of values return the middle one, for an even number return the mean of the two middle values. The input array must not be modified.

**Example Usage:**
```javascript
const assert = require('assert');
assert.strictEqual(median([3, 1, 2]), 2);
assert.strictEqual(median([4, 1, 3, 2]), 2.5);
```
''',
    solution=r'''
function median(nums) {
  if (nums.length === 0) return null;
  const sorted = [...nums].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid];
  return (sorted[mid - 1] + sorted[mid]) / 2;
}
''',
    demo=r'''
const assert = require('assert');

const demoTesting = () => {
  assert.strictEqual(median([3, 1, 2]), 2);
  assert.strictEqual(median([4, 1, 3, 2]), 2.5);
};

demoTesting();
''',
    full=r'''
const assert = require('assert');

const fullTesting = () => {
  assert.strictEqual(median([3, 1, 2]), 2);
  assert.strictEqual(median([4, 1, 3, 2]), 2.5);
  assert.strictEqual(median([7]), 7);
  assert.strictEqual(median([10, -10]), 0);
  assert.strictEqual(median([100, 2, 33]), 33);
  assert.strictEqual(median([]), null);
  const input = [5, 3, 1];
  median(input);
  assert.deepStrictEqual(input, [5, 3, 1]);
};

fullTesting();
''',
    explanation="The full test requires median([]) to return null, but the statement never says what an empty array gives (null, undefined, NaN or an exception are all plausible). An annotator notices the edge case in the full test that has no sentence in the statement.",
    critic=dict(name="median", style="string"),
    reasoning='''
median is named consistently. Odd/even rules and the numeric sort are stated; [100, 2, 33] sorted numerically gives 33 (a lexicographic sort would give 2), good edge case. No-mutation check is stated. Results are exact halves, so strict equality on floats is fine. Pass.
''',
)

# ------------------------------------------------------------ typescript ---

add(
    language="typescript", title="Parse a query string", difficulty="medium",
    extra={"index": 8, "tags": ["parsing", "web"]},
    question=r'''
**Problem: Parse a URL Query String**

Write a TypeScript function `parseQueryString(qs: string): Record<string, string[]>`.

- An optional leading `?` is ignored.
- Pairs are separated by `&`; empty pairs (from `&&` or a trailing `&`) are skipped.
- A pair is `key=value`, split at the **first** `=`; a pair without `=` has the value `""`.
- Keys and values are decoded: `+` becomes a space, then percent-escapes are decoded with `decodeURIComponent`.
- Every key maps to the list of its values in order of appearance; keys appear in the result in order of first appearance.

The empty string (or just `"?"`) returns `{}`.

**Example Usage:**
```typescript
parseQueryString("?a=1&b=2");      // { a: ["1"], b: ["2"] }
parseQueryString("tag=x&tag=y");   // { tag: ["x", "y"] }
```
''',
    solution=r'''
function parseQueryString(qs: string): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  const body = qs.startsWith('?') ? qs.slice(1) : qs;
  if (body === '') return result;
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    if (!Object.prototype.hasOwnProperty.call(result, key)) {
      result[key] = [];
    }
    result[key].push(value);
  }
  return result;
}
''',
    demo=r'''
function assertEqualJSON(actual: unknown, expected: unknown, label: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) {
    throw new Error(`Test failed: ${label}: expected ${e}, got ${a}`);
  }
}

function demoTesting(): void {
  assertEqualJSON(parseQueryString('?a=1&b=2'), { a: ['1'], b: ['2'] }, 'simple pairs');
  assertEqualJSON(parseQueryString('tag=x&tag=y'), { tag: ['x', 'y'] }, 'repeated key');
}

demoTesting();
''',
    full=r'''
function assertEqualJSON(actual: unknown, expected: unknown, label: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) {
    throw new Error(`Test failed: ${label}: expected ${e}, got ${a}`);
  }
}

function fullTesting(): void {
  assertEqualJSON(parseQueryString('?a=1&b=2'), { a: ['1'], b: ['2'] }, 'simple pairs');
  assertEqualJSON(parseQueryString('tag=x&tag=y'), { tag: ['x', 'y'] }, 'repeated key');
  assertEqualJSON(parseQueryString(''), {}, 'empty string');
  assertEqualJSON(parseQueryString('?'), {}, 'only question mark');
  assertEqualJSON(
    parseQueryString('name=John+Doe&city=New%20York'),
    { name: ['John Doe'], city: ['New York'] },
    'decoding'
  );
  assertEqualJSON(parseQueryString('flag&x='), { flag: [''], x: [''] }, 'missing values');
  assertEqualJSON(parseQueryString('a=1&&b=2&'), { a: ['1'], b: ['2'] }, 'empty pairs');
  assertEqualJSON(parseQueryString('eq=a%3Db'), { eq: ['a=b'] }, 'encoded equals');
  assertEqualJSON(parseQueryString('k=v=w'), { k: ['v=w'] }, 'split at first =');
}

fullTesting();
''',
    valid=True, flaw=None,
    explanation="Valid: every edge case in the full test (empty pairs, missing '=', split at the first '=', '+' decoding, key order) is spelled out in the statement.",
    critic=dict(name="parseQueryString"),
    reasoning='''
parseQueryString consistent; the assertEqualJSON helper is defined in the test itself. JSON.stringify comparison is order-sensitive, but the statement fixes key order (first appearance) so it is deterministic. 'k=v=w' -> split at first '=' stated. Pass.
''',
)

add(
    language="typescript", title="Balanced brackets", difficulty="easy",
    extra={"index": 17, "seed": "ts-brackets-3", "tags": ["stack"]},
    question=r'''
**Problem: Balanced Brackets**

Write a TypeScript function `isBalanced(s: string): boolean` that returns `true` if every bracket in `s` is closed by the matching bracket type in the correct order. The bracket pairs are `()`, `[]` and `{}`. All other characters are ignored. The empty string is balanced.

**Example Usage:**
```typescript
isBalanced("([]{})");  // true
isBalanced("([)]");    // false
```
''',
    solution=r'''
function isBalanced(s: string): boolean {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const stack: string[] = [];
  for (const ch of s) {
    if (ch === '(' || ch === '[' || ch === '{') {
      stack.push(ch);
    } else if (ch === ')' || ch === ']' || ch === '}') {
      if (stack.pop() !== pairs[ch]) return false;
    }
  }
  return stack.length === 0;
}
''',
    demo=r'''
function demoTesting(): void {
  if (isBalanced('([]{})') !== true) throw new Error('Test failed: ([]{}) should be balanced');
  if (isBalanced('([)]') !== false) throw new Error('Test failed: ([)] should not be balanced');
}

demoTesting();
''',
    full=r'''
function fullTesting(): void {
  const cases: Array<[string, boolean]> = [
    ['([]{})', true],
    ['([)]', false],
    ['', true],
    ['((', false],
    ['))', false],
    ['a(b[c]d)e', true],
    ['{[()()]}', true],
    ['}', false],
    ['no brackets at all', true],
  ];
  for (const [input, expected] of cases) {
    const got = isBalanced(input);
    if (got !== expected) {
      throw new Error(`Test failed: isBalanced(${JSON.stringify(input)}) = ${got}, expected ${expected}`);
    }
  }
}

fullTesting();
''',
    valid=True, flaw=None,
    explanation="Valid: ignoring non-bracket characters and the empty string being balanced are both stated; the expectations are correct.",
    critic=dict(name="isBalanced", style="inconsistent-pass",
                minor=("Other Issues", "Minor: the tests could also cover very deep nesting, but coverage is adequate.")),
    reasoning='''
isBalanced consistent, explicit throw-based checks. Cases: "}" -> pop of empty stack gives undefined != '{' -> false; correct. Coverage could include deep nesting but that is not a validity problem. Overall pass.
''',
)

add(
    language="typescript", title="Lexicographically smallest topological order", difficulty="hard",
    extra={"index": 45, "tags": ["graphs", "topological-sort"]},
    question=r'''
**Problem: Smallest Topological Order**

Write a TypeScript function `topoSort(n: number, edges: [number, number][]): number[] | null`.

The graph has nodes `0 .. n-1`. Each edge `[u, v]` means `u` must come before `v`. Return an ordering of all nodes that respects every edge. When several nodes could come next, always take the **smallest** node number, so the answer is unique. If the graph has a cycle (including a self-loop), return `null`. Duplicate edges are allowed and mean the same as one edge.

**Example Usage:**
```typescript
topoSort(4, [[0, 1], [1, 2], [2, 3]]);   // [0, 1, 2, 3]
topoSort(3, [[0, 1], [1, 2], [2, 0]]);   // null
```
''',
    solution=r'''
function topoSort(n: number, edges: [number, number][]): number[] | null {
  const indegree: number[] = new Array(n).fill(0);
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const [u, v] of edges) {
    adj[u].push(v);
    indegree[v]++;
  }
  const ready: number[] = [];
  for (let i = 0; i < n; i++) {
    if (indegree[i] === 0) ready.push(i);
  }
  const order: number[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => a - b);
    const node = ready.shift() as number;
    order.push(node);
    for (const next of adj[node]) {
      indegree[next]--;
      if (indegree[next] === 0) ready.push(next);
    }
  }
  return order.length === n ? order : null;
}
''',
    demo=r'''
function check(actual: number[] | null, expected: number[] | null, label: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`Test failed: ${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function demoTesting(): void {
  check(topoSort(4, [[0, 1], [1, 2], [2, 3]]), [0, 1, 2, 3], 'chain');
  check(topoSort(3, [[0, 1], [1, 2], [2, 0]]), null, 'cycle');
}

demoTesting();
''',
    full=r'''
function check(actual: number[] | null, expected: number[] | null, label: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`Test failed: ${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function fullTesting(): void {
  check(topoSort(4, [[0, 1], [1, 2], [2, 3]]), [0, 1, 2, 3], 'chain');
  check(topoSort(3, [[0, 1], [1, 2], [2, 0]]), null, 'cycle');
  check(topoSort(3, []), [0, 1, 2], 'no edges');
  check(topoSort(0, []), [], 'empty graph');
  check(topoSort(4, [[3, 0], [2, 0], [1, 0]]), [1, 2, 3, 0], 'sink last');
  check(topoSort(5, [[4, 1], [1, 0], [3, 2]]), [3, 2, 4, 1, 0], 'smallest available first');
  check(topoSort(2, [[1, 1]]), null, 'self loop');
  check(topoSort(2, [[0, 1], [0, 1]]), [0, 1], 'duplicate edges');
}

fullTesting();
''',
    valid=True, flaw=None,
    explanation="Valid: the smallest-available rule makes the answer unique, and cycles, self-loops, duplicate edges and n = 0 are all covered by the statement.",
    critic=dict(name="topoSort", style="fenced-trailing",
                outro="No blocking issues; the tie-breaking rule makes the expected orders unique."),
    reasoning='''
topoSort consistent. Traced [[4,1],[1,0],[3,2]]: available {3,4} -> 3, then {2,4} -> 2, then 4, 1, 0 => [3,2,4,1,0]. Matches. Self-loop and duplicate edges are both specified. Deterministic. Pass.
''',
)

add(
    language="typescript", title="Average of numbers", difficulty="easy",
    flaw="precision", valid=False, expected_execution="pass",
    extra={"index": 49, "tags": ["math", "floats"]},
    question=r'''
**Problem: Average**

Write a TypeScript function `average(nums: number[]): number` that returns the arithmetic mean of `nums`. If `nums` is empty, throw an `Error`.

**Example Usage:**
```typescript
average([1, 2, 3, 4]);  // 2.5
average([10]);          // 10
```
''',
    solution=r'''
function average(nums: number[]): number {
  if (nums.length === 0) {
    throw new Error('empty input');
  }
  let total = 0;
  for (const x of nums) {
    total += x;
  }
  return total / nums.length;
}
''',
    demo=r'''
function demoTesting(): void {
  if (average([1, 2, 3, 4]) !== 2.5) throw new Error('Test failed: average([1,2,3,4])');
  if (average([10]) !== 10) throw new Error('Test failed: average([10])');
}

demoTesting();
''',
    full=r'''
function fullTesting(): void {
  if (average([1, 2, 3, 4]) !== 2.5) throw new Error('Test failed: average([1,2,3,4])');
  if (average([10]) !== 10) throw new Error('Test failed: average([10])');
  if (average([-1, 1]) !== 0) throw new Error('Test failed: average([-1,1])');
  if (average([0.1, 0.2, 0.3]) !== 0.20000000000000004) throw new Error('Test failed: average([0.1,0.2,0.3])');
  if (average([1.1, 2.2]) !== 1.6500000000000001) throw new Error('Test failed: average([1.1,2.2])');
  if (average([1e9, 1e9, 1e9]) !== 1e9) throw new Error('Test failed: large values');
  let threw = false;
  try {
    average([]);
  } catch (e) {
    threw = true;
  }
  if (!threw) throw new Error('Test failed: empty input should throw');
}

fullTesting();
''',
    explanation="The full test compares computed means with exact floating-point literals such as 0.20000000000000004, which encode the left-to-right summation of this particular solution; an equally correct solution (pairwise or compensated summation, or dividing first) fails. Visible as long float literals with !== in the full test.",
    critic=dict(name="average", fails={
        "Improper Precision Handling": "The full test checks `average([0.1, 0.2, 0.3]) !== 0.20000000000000004` and `average([1.1, 2.2]) !== 1.6500000000000001`: exact equality against rounding artefacts of one summation order. A tolerance should be used.",
    }, key_points=["Exact float comparison against rounding artefacts."]),
    reasoning='''
Name consistent. The literals 0.20000000000000004 and 1.6500000000000001 are not what the statement asks for (the mean 0.2 and 1.65); they are what this implementation happens to produce. Any other summation order may differ in the last bit. Flag precision. The try/catch for the empty case only sets a flag and re-checks it, so that is fine.
''',
)
