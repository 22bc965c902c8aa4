"""C++, Java, Rust and Go records."""

RECORDS = []


def add(**kw):
    RECORDS.append(kw)


# ------------------------------------------------------------------- cpp ---

add(
    language="cpp", title="Reverse the words of a sentence", difficulty="easy",
    extra={"index": 2, "tags": ["strings"]},
    question=r'''
**Problem: Reverse Words**

Write a C++ function with the signature

```cpp
string reverseWords(const string& s);
```

that returns the words of `s` in reverse order. Words are maximal sequences of non-space characters; `s` may contain leading, trailing or repeated spaces. The result contains the words separated by exactly one space, with no leading or trailing spaces. If `s` has no words, return the empty string.

**Example Usage:**
```cpp
assert(reverseWords("the sky is blue") == "blue is sky the");
assert(reverseWords("  hello   world  ") == "world hello");
```
''',
    solution=r'''
#include <string>
#include <sstream>
#include <vector>
#include <algorithm>

using namespace std;

string reverseWords(const string& s) {
    istringstream in(s);
    vector<string> words;
    string w;
    while (in >> w) {
        words.push_back(w);
    }
    reverse(words.begin(), words.end());
    string out;
    for (size_t i = 0; i < words.size(); ++i) {
        if (i > 0) out += ' ';
        out += words[i];
    }
    return out;
}
''',
    demo=r'''
#include <cassert>
#include <string>

using namespace std;

int main() {
    assert(reverseWords("the sky is blue") == "blue is sky the");
    assert(reverseWords("  hello   world  ") == "world hello");
    cout << "All tests passed" << endl;
    return 0;
}
''',
    full=r'''
#include <cassert>
#include <string>

using namespace std;

int main() {
    assert(reverseWords("the sky is blue") == "blue is sky the");
    assert(reverseWords("  hello   world  ") == "world hello");
    assert(reverseWords("") == "");
    assert(reverseWords("     ") == "");
    assert(reverseWords("one") == "one");
    assert(reverseWords("a b c d") == "d c b a");
    assert(reverseWords("C++ is fun!") == "fun! is C++");
    assert(reverseWords(" x ") == "x");
    cout << "All tests passed" << endl;
    return 0;
}
''',
    valid=True, flaw=None,
    explanation="Valid: whitespace normalisation and the empty result are stated; punctuation stays attached to words as the definition implies.",
    critic=dict(name="reverseWords"),
    reasoning='''
reverseWords consistent, signature matches. Test uses cout, which the sandbox prefix provides via <iostream>. Edge cases (all spaces -> "") are covered by "if s has no words, return the empty string". Pass.
''',
)

add(
    language="cpp", title="Dijkstra shortest distances", difficulty="medium",
    extra={"index": 9, "seed": "cpp-dijkstra-21", "tags": ["graphs", "shortest-path"]},
    question=r'''
**Problem: Single-Source Shortest Distances**

Write a C++ function

```cpp
vector<long long> shortestDistances(int n, const vector<tuple<int, int, int>>& edges, int source);
```

The graph has `n` nodes numbered `0 .. n-1` and **directed** edges `(u, v, w)` from `u` to `v` with non-negative weight `w` (`0 <= w <= 10^9`). Parallel edges may exist. Return a vector `dist` of size `n` where `dist[i]` is the length of the shortest path from `source` to `i`, or `-1` if `i` is unreachable. `dist[source]` is `0`.

Distances can exceed the range of a 32-bit integer.

**Example Usage:**
```cpp
vector<tuple<int,int,int>> edges = {{0,1,4}, {0,2,1}, {2,1,2}, {1,3,1}};
assert(shortestDistances(4, edges, 0) == vector<long long>({0, 3, 1, 4}));
```
''',
    solution=r'''
#include <vector>
#include <queue>
#include <tuple>
#include <utility>
#include <climits>
#include <functional>

using namespace std;

vector<long long> shortestDistances(int n, const vector<tuple<int, int, int>>& edges, int source) {
    vector<vector<pair<int, long long>>> adj(n);
    for (const auto& e : edges) {
        adj[get<0>(e)].push_back({get<1>(e), (long long)get<2>(e)});
    }
    const long long INF = LLONG_MAX;
    vector<long long> dist(n, INF);
    priority_queue<pair<long long, int>, vector<pair<long long, int>>, greater<pair<long long, int>>> pq;
    dist[source] = 0;
    pq.push({0, source});
    while (!pq.empty()) {
        pair<long long, int> top = pq.top();
        pq.pop();
        long long d = top.first;
        int u = top.second;
        if (d > dist[u]) continue;
        for (const auto& edge : adj[u]) {
            long long nd = d + edge.second;
            if (nd < dist[edge.first]) {
                dist[edge.first] = nd;
                pq.push({nd, edge.first});
            }
        }
    }
    for (auto& x : dist) {
        if (x == INF) x = -1;
    }
    return dist;
}
''',
    demo=r'''
#include <cassert>
#include <vector>
#include <tuple>

using namespace std;

int main() {
    vector<tuple<int, int, int>> edges = {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}};
    assert(shortestDistances(4, edges, 0) == vector<long long>({0, 3, 1, 4}));
    assert(shortestDistances(3, {}, 1) == vector<long long>({-1, 0, -1}));
    cout << "All tests passed" << endl;
    return 0;
}
''',
    full=r'''
#include <cassert>
#include <vector>
#include <tuple>

using namespace std;

int main() {
    vector<tuple<int, int, int>> edges = {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}};
    assert(shortestDistances(4, edges, 0) == vector<long long>({0, 3, 1, 4}));
    assert(shortestDistances(3, {}, 1) == vector<long long>({-1, 0, -1}));
    // edges are directed
    assert(shortestDistances(2, {{1, 0, 5}}, 0) == vector<long long>({0, -1}));
    // zero-weight edges
    assert(shortestDistances(3, {{0, 1, 0}, {1, 2, 0}}, 0) == vector<long long>({0, 0, 0}));
    // distances beyond 32 bits
    assert(shortestDistances(3, {{0, 1, 1000000000}, {1, 2, 1000000000}}, 0) ==
           vector<long long>({0, 1000000000LL, 2000000000LL}));
    assert(shortestDistances(4, {{0, 1, 1000000000}, {1, 2, 1000000000}, {2, 3, 1000000000}}, 0) ==
           vector<long long>({0, 1000000000LL, 2000000000LL, 3000000000LL}));
    // parallel edges
    assert(shortestDistances(2, {{0, 1, 7}, {0, 1, 3}}, 0) == vector<long long>({0, 3}));
    // single node
    assert(shortestDistances(1, {}, 0) == vector<long long>({0}));
    // cycle, source in the middle
    assert(shortestDistances(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}, 2) == vector<long long>({1, 2, 0}));
    cout << "All tests passed" << endl;
    return 0;
}
''',
    valid=True, flaw=None,
    explanation="Valid: directed edges, -1 for unreachable nodes and 64-bit distances are all stated; the 3*10^9 case checks the overflow requirement.",
    critic=dict(name="shortestDistances", style="string"),
    reasoning='''
shortestDistances consistent. Example: 0->2 (1), 2->1 (2) gives 3 < 4, then 1->3 gives 4. Directed-edge test [1->0] from 0 gives -1, stated. 3e9 needs long long, stated. Pass.
''',
)

add(
    language="cpp", title="Count inversions", difficulty="hard",
    extra={"index": 19, "tags": ["divide-and-conquer", "sorting"]},
    question=r'''
**Problem: Count Inversions**

Write a C++ function

```cpp
long long countInversions(vector<int> a);
```

that returns the number of pairs `(i, j)` with `i < j` and `a[i] > a[j]` (equal values do not form an inversion). The array has up to `10^5` elements, so an `O(n^2)` algorithm is too slow and the answer may exceed 32 bits.

**Example Usage:**
```cpp
assert(countInversions({2, 4, 1, 3, 5}) == 3);
assert(countInversions({}) == 0);
```
''',
    solution=r'''
#include <vector>

using namespace std;

static long long mergeCount(vector<int>& a, vector<int>& tmp, int lo, int hi) {
    if (hi - lo <= 1) return 0;
    int mid = lo + (hi - lo) / 2;
    long long count = mergeCount(a, tmp, lo, mid) + mergeCount(a, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (a[i] <= a[j]) {
            tmp[k++] = a[i++];
        } else {
            count += mid - i;
            tmp[k++] = a[j++];
        }
    }
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    for (int t = lo; t < hi; ++t) a[t] = tmp[t];
    return count;
}

long long countInversions(vector<int> a) {
    vector<int> tmp(a.size());
    return mergeCount(a, tmp, 0, (int)a.size());
}
''',
    demo=r'''
#include <cassert>
#include <vector>

using namespace std;

int main() {
    assert(countInversions({2, 4, 1, 3, 5}) == 3);
    assert(countInversions({}) == 0);
    cout << "All tests passed" << endl;
    return 0;
}
''',
    full=r'''
#include <cassert>
#include <vector>

using namespace std;

int main() {
    assert(countInversions({2, 4, 1, 3, 5}) == 3);
    assert(countInversions({}) == 0);
    assert(countInversions({1, 2, 3}) == 0);
    assert(countInversions({3, 2, 1}) == 3);
    assert(countInversions({5, 5, 5}) == 0);
    assert(countInversions({1, 3, 2, 3, 1}) == 4);
    assert(countInversions({-1, -2}) == 1);
    vector<int> desc(100000);
    for (int i = 0; i < 100000; ++i) desc[i] = 100000 - i;
    assert(countInversions(desc) == 4999950000LL);
    cout << "All tests passed" << endl;
    return 0;
}
''',
    valid=True, flaw=None,
    explanation="Valid: strictness for equal values and the 64-bit result are stated; the 10^5 descending case (4,999,950,000) checks both speed and overflow.",
    critic=dict(name="countInversions"),
    reasoning='''
countInversions consistent. [1,3,2,3,1]: (3,2), (3,1), (2,1), (3,1) = 4. Equal elements not counted, stated. 100000 descending gives n(n-1)/2 = 4999950000, needs long long, stated. Pass.
''',
)

add(
    language="cpp", title="Longest common subsequence", difficulty="medium",
    extra={"index": 26, "seed": "cpp-lcs-4"},
    question=r'''
**Problem: Longest Common Subsequence**

Write a C++ function

```cpp
int longestCommonSubsequence(const string& a, const string& b);
```

that returns the length of the longest sequence of characters that appears in both `a` and `b` in the same relative order (not necessarily contiguously). Comparison is case-sensitive. Each string has at most 2000 characters; either may be empty.

**Example Usage:**
```cpp
assert(longestCommonSubsequence("abcde", "ace") == 3);
assert(longestCommonSubsequence("abc", "def") == 0);
```
''',
    solution=r'''
#include <string>
#include <vector>
#include <algorithm>

using namespace std;

int longestCommonSubsequence(const string& a, const string& b) {
    vector<int> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    for (size_t i = 1; i <= a.size(); ++i) {
        for (size_t j = 1; j <= b.size(); ++j) {
            if (a[i - 1] == b[j - 1]) {
                cur[j] = prev[j - 1] + 1;
            } else {
                cur[j] = max(prev[j], cur[j - 1]);
            }
        }
        swap(prev, cur);
    }
    return prev[b.size()];
}
''',
    demo=r'''
#include <cassert>
#include <string>

using namespace std;

int main() {
    assert(longestCommonSubsequence("abcde", "ace") == 3);
    assert(longestCommonSubsequence("abc", "def") == 0);
    cout << "All tests passed" << endl;
    return 0;
}
''',
    full=r'''
#include <cassert>
#include <string>

using namespace std;

int main() {
    assert(longestCommonSubsequence("abcde", "ace") == 3);
    assert(longestCommonSubsequence("abc", "def") == 0);
    assert(longestCommonSubsequence("", "abc") == 0);
    assert(longestCommonSubsequence("abc", "") == 0);
    assert(longestCommonSubsequence("abc", "abc") == 3);
    assert(longestCommonSubsequence("AGGTAB", "GXTXAYB") == 4);
    assert(longestCommonSubsequence("ABCBDAB", "BDCABA") == 4);
    assert(longestCommonSubsequence("aaaa", "aa") == 2);
    assert(longestCommonSubsequence("abc", "ABC") == 0);
    string longA(2000, 'x'), longB(2000, 'x');
    assert(longestCommonSubsequence(longA, longB) == 2000);
    cout << "All tests passed" << endl;
    return 0;
}
''',
    valid=True, flaw=None,
    explanation="Valid: case sensitivity and empty inputs are stated; the textbook pairs (AGGTAB/GXTXAYB = 4, ABCBDAB/BDCABA = 4) are correct.",
    critic=dict(name="longestCommonSubsequence"),
    reasoning='''
Name and signature consistent. AGGTAB vs GXTXAYB: GTAB = 4. ABCBDAB vs BDCABA: BCBA = 4. Case-sensitive case stated. Pass.
''',
)

add(
    language="cpp", title="Count primes in a closed range", difficulty="easy",
    flaw="wrong-expected-output", valid=False, expected_execution="pass",
    extra={"index": 33, "tags": ["math", "primes"]},
    question=r'''
**Problem: Primes in a Range**

Write a C++ function

```cpp
int countPrimesInRange(int lo, int hi);
```

that returns how many prime numbers `p` satisfy `lo <= p <= hi` (**both ends inclusive**). If `lo > hi`, return `0`. Inputs satisfy `0 <= lo, hi <= 10^6`.

**Example Usage:**
```cpp
assert(countPrimesInRange(1, 10) == 4);
assert(countPrimesInRange(2, 7) == 3);
```
''',
    solution=r'''
#include <algorithm>

using namespace std;

static bool isPrime(int n) {
    if (n < 2) return false;
    for (int d = 2; (long long)d * d <= n; ++d) {
        if (n % d == 0) return false;
    }
    return true;
}

int countPrimesInRange(int lo, int hi) {
    int count = 0;
    for (int i = max(lo, 2); i < hi; ++i) {
        if (isPrime(i)) ++count;
    }
    return count;
}
''',
    demo=r'''
#include <cassert>

using namespace std;

int main() {
    assert(countPrimesInRange(1, 10) == 4);
    assert(countPrimesInRange(2, 7) == 3);
    cout << "All tests passed" << endl;
    return 0;
}
''',
    full=r'''
#include <cassert>

using namespace std;

int main() {
    assert(countPrimesInRange(1, 10) == 4);
    assert(countPrimesInRange(2, 7) == 3);
    assert(countPrimesInRange(10, 20) == 4);
    assert(countPrimesInRange(13, 13) == 0);
    assert(countPrimesInRange(20, 10) == 0);
    assert(countPrimesInRange(0, 1) == 0);
    assert(countPrimesInRange(1, 100) == 25);
    assert(countPrimesInRange(17, 23) == 2);
    cout << "All tests passed" << endl;
    return 0;
}
''',
    explanation="The statement says both ends are inclusive, but solution and tests agree on an exclusive upper bound: countPrimesInRange(2, 7) should be 4 (2, 3, 5, 7), (13, 13) should be 1 and (17, 23) should be 3. Everything passes when run; an annotator finds it by checking the demo example by hand.",
    critic=dict(name="countPrimesInRange"),
    reasoning='''
countPrimesInRange consistent. Expected values: primes up to 10 are 2,3,5,7 -> 4; primes up to 100 -> 25; 10..20 -> 11,13,17,19 = 4. lo > hi returns 0, stated. Integer results only. Pass.
''',
)

# ------------------------------------------------------------------ java ---

add(
    language="java", title="Alphanumeric palindrome", difficulty="easy",
    extra={"index": 6, "tags": ["strings", "two-pointers"]},
    question=r'''
**Problem: Alphanumeric Palindrome**

Implement a Java class `StringUtils` with a static method

```java
public static boolean isPalindrome(String s)
```

that returns `true` if `s` reads the same forwards and backwards after removing every character that is not a letter or digit (`Character.isLetterOrDigit`) and ignoring case. The empty string (or a string with no letters or digits) is a palindrome. For `null`, return `false`.

**Example Usage:**
```java
StringUtils.isPalindrome("A man, a plan, a canal: Panama");  // true
StringUtils.isPalindrome("race a car");                      // false
```
''',
    solution=r'''
public class StringUtils {
    public static boolean isPalindrome(String s) {
        if (s == null) {
            return false;
        }
        int i = 0;
        int j = s.length() - 1;
        while (i < j) {
            char a = s.charAt(i);
            char b = s.charAt(j);
            if (!Character.isLetterOrDigit(a)) {
                i++;
            } else if (!Character.isLetterOrDigit(b)) {
                j--;
            } else {
                if (Character.toLowerCase(a) != Character.toLowerCase(b)) {
                    return false;
                }
                i++;
                j--;
            }
        }
        return true;
    }
}
''',
    demo=r'''
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestStringUtils {
    @Test
    public void testDemo() {
        assertTrue(StringUtils.isPalindrome("A man, a plan, a canal: Panama"));
        assertFalse(StringUtils.isPalindrome("race a car"));
    }
}
''',
    full=r'''
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestStringUtils {
    @Test
    public void testFull() {
        assertTrue(StringUtils.isPalindrome("A man, a plan, a canal: Panama"));
        assertFalse(StringUtils.isPalindrome("race a car"));
        assertTrue(StringUtils.isPalindrome(""));
        assertTrue(StringUtils.isPalindrome(" .,! "));
        assertTrue(StringUtils.isPalindrome("a"));
        assertTrue(StringUtils.isPalindrome("No 'x' in Nixon"));
        assertFalse(StringUtils.isPalindrome("0P"));
        assertTrue(StringUtils.isPalindrome("12321"));
        assertFalse(StringUtils.isPalindrome(null));
    }
}
''',
    valid=True, flaw=None,
    explanation="Valid: null -> false and punctuation-only -> true are stated; '0P' checks that digits are not letters.",
    critic=dict(name="isPalindrome"),
    reasoning='''
StringUtils.isPalindrome consistent with the statement. null case specified. " .,! " has no letters or digits -> palindrome, specified. "0P": '0' vs 'p' differ -> false. Pass.
''',
)

add(
    language="java", title="Bank account", difficulty="medium",
    extra={"index": 15, "seed": "java-bank-12", "tags": ["oop", "exceptions"]},
    question=r'''
**Problem: Bank Account**

Implement a Java class `BankAccount` that tracks a balance in cents:

- `public BankAccount(String owner, long initialCents)` — throws `IllegalArgumentException` if `initialCents < 0`.
- `public void deposit(long cents)` — throws `IllegalArgumentException` if `cents <= 0`.
- `public void withdraw(long cents)` — throws `IllegalArgumentException` if `cents <= 0`, and `IllegalStateException` if `cents` exceeds the balance.
- `public void transferTo(BankAccount other, long cents)` — moves money to `other`; throws `IllegalArgumentException` if `other` is `null` or is this same account, and otherwise follows the rules of `withdraw`.
- `public long getBalance()` and `public String getOwner()`.

An operation that throws leaves every balance unchanged.

**Example Usage:**
```java
BankAccount acc = new BankAccount("ana", 1000);
acc.deposit(500);
acc.withdraw(300);
acc.getBalance();  // 1200
```
''',
    solution=r'''
public class BankAccount {
    private final String owner;
    private long balanceCents;

    public BankAccount(String owner, long initialCents) {
        if (initialCents < 0) {
            throw new IllegalArgumentException("initial balance must be non-negative");
        }
        this.owner = owner;
        this.balanceCents = initialCents;
    }

    public void deposit(long cents) {
        if (cents <= 0) {
            throw new IllegalArgumentException("deposit must be positive");
        }
        balanceCents += cents;
    }

    public void withdraw(long cents) {
        if (cents <= 0) {
            throw new IllegalArgumentException("withdrawal must be positive");
        }
        if (cents > balanceCents) {
            throw new IllegalStateException("insufficient funds");
        }
        balanceCents -= cents;
    }

    public void transferTo(BankAccount other, long cents) {
        if (other == null || other == this) {
            throw new IllegalArgumentException("invalid target account");
        }
        withdraw(cents);
        other.deposit(cents);
    }

    public long getBalance() {
        return balanceCents;
    }

    public String getOwner() {
        return owner;
    }
}
''',
    demo=r'''
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestBankAccount {
    @Test
    public void testDemo() {
        BankAccount acc = new BankAccount("ana", 1000);
        acc.deposit(500);
        acc.withdraw(300);
        assertEquals(1200L, acc.getBalance());
        assertEquals("ana", acc.getOwner());
    }
}
''',
    full=r'''
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestBankAccount {
    @Test
    public void testBasicOperations() {
        BankAccount acc = new BankAccount("ana", 1000);
        acc.deposit(500);
        acc.withdraw(300);
        assertEquals(1200L, acc.getBalance());
        assertEquals("ana", acc.getOwner());
    }

    @Test
    public void testInvalidAmounts() {
        assertThrows(IllegalArgumentException.class, () -> new BankAccount("bo", -1));
        BankAccount acc = new BankAccount("bo", 100);
        assertThrows(IllegalArgumentException.class, () -> acc.deposit(0));
        assertThrows(IllegalArgumentException.class, () -> acc.withdraw(-5));
        assertThrows(IllegalStateException.class, () -> acc.withdraw(101));
        assertEquals(100L, acc.getBalance());
    }

    @Test
    public void testWithdrawEverything() {
        BankAccount acc = new BankAccount("cy", 250);
        acc.withdraw(250);
        assertEquals(0L, acc.getBalance());
    }

    @Test
    public void testTransfer() {
        BankAccount a = new BankAccount("a", 700);
        BankAccount b = new BankAccount("b", 0);
        a.transferTo(b, 200);
        assertEquals(500L, a.getBalance());
        assertEquals(200L, b.getBalance());
        assertThrows(IllegalStateException.class, () -> b.transferTo(a, 201));
        assertEquals(500L, a.getBalance());
        assertEquals(200L, b.getBalance());
        assertThrows(IllegalArgumentException.class, () -> a.transferTo(a, 1));
        assertThrows(IllegalArgumentException.class, () -> a.transferTo(null, 1));
    }
}
''',
    valid=True, flaw=None,
    explanation="Valid: every exception type and the unchanged-balance rule are specified; assertThrows checks the exceptions rather than swallowing them, so the critic's exception-swallowing flag is a false alarm.",
    critic=dict(name="BankAccount", fails={
        "Exception Swallowing": "The full test wraps several calls in assertThrows(...) lambdas; exceptions thrown there are caught by the test framework, which can hide failures inside those calls.",
    }, key_points=["Exceptions are caught inside the tests (assertThrows)."]),
    reasoning='''
Class and methods match. Several asserts catch exceptions via assertThrows. Catching exceptions in tests can mask errors, so I mark exception swallowing as failed. Balances: 1000+500-300 = 1200 ok; transfer 200 -> 500/200 ok.
''',
)

add(
    language="java", title="Top-k frequent words", difficulty="hard",
    extra={"index": 29, "tags": ["hash-map", "sorting", "strings"]},
    question=r'''
**Problem: Top-K Frequent Words**

Implement a Java class `WordFrequency` with a static method

```java
public static List<String> topKFrequent(String text, int k)
```

A *word* is a maximal run of ASCII letters `a-z`/`A-Z`; everything else separates words. Words are compared case-insensitively and returned in lowercase. Return the `k` most frequent words, ordered by frequency (highest first) and, for equal frequencies, alphabetically. If there are fewer than `k` distinct words, return all of them. If `text` is `null` or `k <= 0`, return an empty list.

**Example Usage:**
```java
WordFrequency.topKFrequent("the cat and the hat and the bat", 2);  // [the, and]
WordFrequency.topKFrequent("b a c", 2);                              // [a, b]
```
''',
    solution=r'''
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class WordFrequency {
    public static List<String> topKFrequent(String text, int k) {
        List<String> result = new ArrayList<>();
        if (text == null || k <= 0) {
            return result;
        }
        Map<String, Integer> counts = new HashMap<>();
        StringBuilder cur = new StringBuilder();
        String lower = text.toLowerCase();
        for (int i = 0; i <= lower.length(); i++) {
            char c = i < lower.length() ? lower.charAt(i) : ' ';
            if (c >= 'a' && c <= 'z') {
                cur.append(c);
            } else if (cur.length() > 0) {
                counts.merge(cur.toString(), 1, Integer::sum);
                cur.setLength(0);
            }
        }
        List<String> words = new ArrayList<>(counts.keySet());
        words.sort((x, y) -> {
            int cmp = Integer.compare(counts.get(y), counts.get(x));
            return cmp != 0 ? cmp : x.compareTo(y);
        });
        result.addAll(words.subList(0, Math.min(k, words.size())));
        return result;
    }
}
''',
    demo=r'''
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestWordFrequency {
    @Test
    public void testDemo() {
        assertEquals(List.of("the", "and"), WordFrequency.topKFrequent("the cat and the hat and the bat", 2));
        assertEquals(List.of("a", "b"), WordFrequency.topKFrequent("b a c", 2));
    }
}
''',
    full=r'''
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestWordFrequency {
    @Test
    public void testFull() {
        assertEquals(List.of("the", "and"), WordFrequency.topKFrequent("the cat and the hat and the bat", 2));
        assertEquals(List.of("a", "b"), WordFrequency.topKFrequent("b a c", 2));
        assertEquals(List.of(), WordFrequency.topKFrequent("", 3));
        assertEquals(List.of("hello"), WordFrequency.topKFrequent("Hello, hello! HELLO?", 1));
        assertEquals(List.of("one", "two"), WordFrequency.topKFrequent("one two", 5));
        assertEquals(List.of(), WordFrequency.topKFrequent("some words here", 0));
        assertEquals(List.of("s", "a", "dog"), WordFrequency.topKFrequent("it's a dog's life", 3));
        assertEquals(List.of(), WordFrequency.topKFrequent(null, 2));
        assertEquals(List.of("x", "y"), WordFrequency.topKFrequent("x1y2x3y4x", 2));
    }
}
''',
    valid=True, flaw=None,
    explanation="Valid: the word definition (apostrophes and digits split words), the tie-break and the null/k <= 0 cases are stated, so \"it's a dog's life\" -> [s, a, dog] follows.",
    critic=dict(name="topKFrequent", style="fenced",
                intro="Review of the record (statement vs. canonical solution vs. tests):"),
    reasoning='''
WordFrequency.topKFrequent consistent. "it's a dog's life": words it, s, a, dog, s, life; s appears twice; ties alphabetical: a, dog, it, life -> [s, a, dog]. Unusual but follows from "maximal run of ASCII letters". "x1y2x3y4x": x=3, y=2. Pass.
''',
)

add(
    language="java", title="Index of the maximum", difficulty="easy",
    flaw="statement-incomplete", valid=False, expected_execution="pass",
    extra={"index": 38, "tags": ["arrays"]},
    question=r'''
**Problem: Index of the Maximum**

Implement a Java class `ArrayStats` with a static method

```java
public static int findMaxIndex(int[] arr)
```

that returns the index of the largest element of `arr`. If the maximum occurs more than once, return the index of its first occurrence.

**Example Usage:**
```java
ArrayStats.findMaxIndex(new int[]{3, 9, 2});     // 1
ArrayStats.findMaxIndex(new int[]{3, 7, 7, 1});  // 1
```
''',
    solution=r'''
public class ArrayStats {
    public static int findMaxIndex(int[] arr) {
        if (arr == null || arr.length == 0) {
            return -1;
        }
        int best = 0;
        for (int i = 1; i < arr.length; i++) {
            if (arr[i] > arr[best]) {
                best = i;
            }
        }
        return best;
    }
}
''',
    demo=r'''
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestArrayStats {
    @Test
    public void testDemo() {
        assertEquals(1, ArrayStats.findMaxIndex(new int[]{3, 9, 2}));
        assertEquals(1, ArrayStats.findMaxIndex(new int[]{3, 7, 7, 1}));
    }
}
''',
    full=r'''
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class TestArrayStats {
    @Test
    public void testFull() {
        assertEquals(1, ArrayStats.findMaxIndex(new int[]{3, 9, 2}));
        assertEquals(1, ArrayStats.findMaxIndex(new int[]{3, 7, 7, 1}));
        assertEquals(0, ArrayStats.findMaxIndex(new int[]{42}));
        assertEquals(2, ArrayStats.findMaxIndex(new int[]{-5, -3, -1}));
        assertEquals(0, ArrayStats.findMaxIndex(new int[]{4, 4, 4}));
        assertEquals(3, ArrayStats.findMaxIndex(new int[]{1, 2, 3, Integer.MAX_VALUE}));
        assertEquals(-1, ArrayStats.findMaxIndex(new int[]{}));
        assertEquals(-1, ArrayStats.findMaxIndex(null));
    }
}
''',
    explanation="The full test expects -1 for an empty array and for null, but the statement never says what those inputs return (an exception would be just as reasonable). Found by looking for full-test cases that have no rule in the statement.",
    critic=dict(name="findMaxIndex", style="inconsistent-fail", fails={
        "Other Issues": "The statement does not define the result for an empty array or null, yet the full test requires -1 for both.",
    }, key_points=["Empty/null input behaviour (-1) is tested but not specified."]),
    reasoning='''
Name consistent; the tie rule is stated. But `findMaxIndex(new int[]{})` == -1 and `findMaxIndex(null)` == -1 appear only in the tests. A solver could reasonably throw. Marking as failing overall, although each individual rule is borderline.
''',
)

# ------------------------------------------------------------------ rust ---

add(
    language="rust", title="Fibonacci numbers", difficulty="easy",
    extra={"index": 4, "tags": ["math", "dp"]},
    question=r'''
**Problem: Fibonacci**

Write a Rust function

```rust
pub fn fibonacci(n: u32) -> u64
```

that returns the `n`-th Fibonacci number with `F(0) = 0`, `F(1) = 1` and `F(n) = F(n-1) + F(n-2)`. `n` is at most 93 (the largest index whose value fits in `u64`); your function must not overflow for any allowed `n`.

**Example Usage:**
```rust
assert_eq!(fibonacci(10), 55);
assert_eq!(fibonacci(0), 0);
```
''',
    solution=r'''
pub fn fibonacci(n: u32) -> u64 {
    if n == 0 {
        return 0;
    }
    let (mut a, mut b): (u64, u64) = (0, 1);
    for _ in 1..n {
        let next = a + b;
        a = b;
        b = next;
    }
    b
}

fn main() {}
''',
    demo=r'''
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo() {
        assert_eq!(fibonacci(10), 55);
        assert_eq!(fibonacci(0), 0);
    }
}
''',
    full=r'''
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values() {
        assert_eq!(fibonacci(0), 0);
        assert_eq!(fibonacci(1), 1);
        assert_eq!(fibonacci(2), 1);
        assert_eq!(fibonacci(10), 55);
        assert_eq!(fibonacci(20), 6765);
    }

    #[test]
    fn large_values() {
        assert_eq!(fibonacci(50), 12586269025);
        assert_eq!(fibonacci(92), 7540113804746346429);
        assert_eq!(fibonacci(93), 12200160415121876738);
    }
}
''',
    valid=True, flaw=None,
    explanation="Valid: F(93) = 12200160415121876738 is the largest u64 Fibonacci number and the statement bounds n at 93; the iterative solution never computes F(94).",
    critic=dict(name="fibonacci", style="string"),
    reasoning='''
fibonacci consistent. Known values: F(20)=6765, F(50)=12586269025, F(93)=12200160415121876738 (fits u64). Statement forbids overflow for allowed n, and the tests run in debug mode where overflow panics, so this is a meaningful check. Pass.
''',
)

add(
    language="rust", title="Compress integer ranges", difficulty="medium",
    extra={"index": 21, "seed": "rs-ranges-8", "tags": ["arrays", "formatting"]},
    question=r'''
**Problem: Compress Ranges**

Write a Rust function

```rust
pub fn compress_ranges(nums: &[i32]) -> String
```

`nums` is sorted in strictly increasing order. Group consecutive integers into runs. Write a run of two or more numbers as `start-end` and a single number on its own; join the parts with `,` (no spaces). An empty slice gives an empty string. Negative numbers are written with their sign, e.g. the run -3, -2, -1 is `-3--1`.

**Example Usage:**
```rust
assert_eq!(compress_ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
assert_eq!(compress_ranges(&[]), "");
```
''',
    solution=r'''
pub fn compress_ranges(nums: &[i32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < nums.len() {
        let start = nums[i];
        let mut j = i;
        while j + 1 < nums.len() && nums[j + 1] as i64 == nums[j] as i64 + 1 {
            j += 1;
        }
        if j > i {
            parts.push(format!("{}-{}", start, nums[j]));
        } else {
            parts.push(start.to_string());
        }
        i = j + 1;
    }
    parts.join(",")
}

fn main() {}
''',
    demo=r'''
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo() {
        assert_eq!(compress_ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
        assert_eq!(compress_ranges(&[]), "");
    }
}
''',
    full=r'''
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full() {
        assert_eq!(compress_ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
        assert_eq!(compress_ranges(&[]), "");
        assert_eq!(compress_ranges(&[4]), "4");
        assert_eq!(compress_ranges(&[1, 3, 5]), "1,3,5");
        assert_eq!(compress_ranges(&[-3, -2, -1, 1]), "-3--1,1");
        assert_eq!(compress_ranges(&[0, 1]), "0-1");
        assert_eq!(compress_ranges(&[i32::MAX - 1, i32::MAX]), "2147483646-2147483647");
        assert_eq!(compress_ranges(&[i32::MIN, 0, i32::MAX]), "-2147483648,0,2147483647");
    }
}
''',
    valid=True, flaw=None,
    explanation="Valid: two-element runs, negative formatting and the empty case are stated; the i32::MAX case checks that the solution does not overflow when testing adjacency.",
    critic=dict(name="compress_ranges"),
    reasoning='''
compress_ranges consistent. "-3--1" format is stated explicitly. i32::MAX case: nums[j] + 1 would overflow in i32 for the last element, but the loop only compares when j+1 < len, and the solution widens to i64. Tests fine. Pass.
''',
)

add(
    language="rust", title="Digital root", difficulty="easy",
    flaw="solution-wrong", valid=False, expected_execution="fail",
    extra={"index": 44, "tags": ["math"]},
    question=r'''
**Problem: Digital Root**

Write a Rust function

```rust
pub fn digital_root(n: u64) -> u64
```

that repeatedly replaces `n` by the sum of its decimal digits until a single digit remains, and returns that digit. `digital_root(0)` is `0`.

**Example Usage:**
```rust
assert_eq!(digital_root(16), 7);
assert_eq!(digital_root(942), 6);
```
''',
    solution=r'''
pub fn digital_root(n: u64) -> u64 {
    n % 9
}

fn main() {}
''',
    demo=r'''
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo() {
        assert_eq!(digital_root(16), 7);
        assert_eq!(digital_root(942), 6);
    }
}
''',
    full=r'''
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full() {
        assert_eq!(digital_root(16), 7);
        assert_eq!(digital_root(942), 6);
        assert_eq!(digital_root(0), 0);
        assert_eq!(digital_root(5), 5);
        assert_eq!(digital_root(9), 9);
        assert_eq!(digital_root(18), 9);
        assert_eq!(digital_root(493193), 2);
        assert_eq!(digital_root(u64::MAX), 6);
    }
}
''',
    explanation="`n % 9` is wrong for positive multiples of 9 (it returns 0 instead of 9), so the canonical solution fails its own full test at digital_root(9). The demo test passes, which hides it until the full test is run.",
    critic=dict(name="digital_root", style="fenced"),
    reasoning='''
digital_root consistent. 16 -> 7, 942 -> 15 -> 6, 493193 -> 29 -> 11 -> 2; u64::MAX = 18446744073709551615, digit sum 87 -> 15 -> 6. Expected values match the statement. Pass.
''',
)

# -------------------------------------------------------------------- go ---

add(
    language="go", title="Anagram check", difficulty="easy",
    extra={"index": 12, "tags": ["strings", "sorting"]},
    question=r'''
**Problem: Anagram Check**

Write a Go function

```go
func IsAnagram(a, b string) bool
```

that reports whether `a` and `b` are anagrams of each other: they contain the same characters with the same multiplicities, ignoring spaces and ignoring letter case (`strings.ToLower`). Two empty strings are anagrams.

**Example Usage:**
```go
IsAnagram("listen", "silent")          // true
IsAnagram("Dormitory", "dirty room")   // true
IsAnagram("abc", "abd")                // false
```
''',
    solution=r'''
package main

import (
	"sort"
	"strings"
)

func IsAnagram(a, b string) bool {
	normalize := func(s string) string {
		r := []rune(strings.ToLower(strings.ReplaceAll(s, " ", "")))
		sort.Slice(r, func(i, j int) bool { return r[i] < r[j] })
		return string(r)
	}
	return normalize(a) == normalize(b)
}
''',
    demo=r'''
package main

import "testing"

func TestDemo(t *testing.T) {
	if !IsAnagram("listen", "silent") {
		t.Error("expected listen/silent to be anagrams")
	}
	if !IsAnagram("Dormitory", "dirty room") {
		t.Error("expected Dormitory/dirty room to be anagrams")
	}
	if IsAnagram("abc", "abd") {
		t.Error("expected abc/abd not to be anagrams")
	}
}
''',
    full=r'''
package main

import "testing"

func TestFull(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"listen", "silent", true},
		{"Dormitory", "dirty room", true},
		{"abc", "abd", false},
		{"", "", true},
		{"a", "", false},
		{"aab", "abb", false},
		{"Astronomer", "Moon starer", true},
		{"ab c", "cba", true},
		{"über", "rebü", true},
	}
	for _, c := range cases {
		if got := IsAnagram(c.a, c.b); got != c.want {
			t.Errorf("IsAnagram(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
''',
    valid=True, flaw=None,
    explanation="Valid: spaces and case are ignored as stated, multiplicities matter (aab vs abb), and the rune-based sort handles the non-ASCII case.",
    critic=dict(name="IsAnagram"),
    reasoning='''
IsAnagram consistent; tests are TestDemo/TestFull with *testing.T. "Astronomer" vs "Moon starer" are anagrams. "über" vs "rebü" rely on rune handling, which the solution does. Pass.
''',
)

add(
    language="go", title="Reverse a string", difficulty="easy",
    flaw="name-mismatch", valid=False, expected_execution="pass",
    extra={"index": 47, "seed": "go-rev-3", "tags": ["strings", "unicode"]},
    question=r'''
**Problem: Reverse a String**

Write a Go function

```go
func Reverse(s string) string
```

that returns `s` reversed by Unicode code points (runes), so multi-byte characters stay intact. The empty string returns the empty string.

**Example Usage:**
```go
Reverse("hello")  // "olleh"
Reverse("héllo")  // "olléh"
```
''',
    solution=r'''
package main

func ReverseString(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
''',
    demo=r'''
package main

import "testing"

func TestDemo(t *testing.T) {
	if got := ReverseString("hello"); got != "olleh" {
		t.Errorf("ReverseString(hello) = %q", got)
	}
	if got := ReverseString("héllo"); got != "olléh" {
		t.Errorf("ReverseString(héllo) = %q", got)
	}
}
''',
    full=r'''
package main

import "testing"

func TestFull(t *testing.T) {
	cases := map[string]string{
		"hello": "olleh",
		"héllo": "olléh",
		"":      "",
		"a":     "a",
		"ab":    "ba",
		"日本語":   "語本日",
		"racecar": "racecar",
		"Go 1.19": "91.1 oG",
	}
	for in, want := range cases {
		if got := ReverseString(in); got != want {
			t.Errorf("ReverseString(%q) = %q, want %q", in, got, want)
		}
	}
}
''',
    explanation="The statement asks for `Reverse(s string) string`, but the solution and tests define and call `ReverseString`; a solver implementing `Reverse` fails to compile. Spotted by comparing the signature in the statement with the calls in the tests.",
    critic=dict(name="ReverseString", fails={
        "Naming/Signature Inconsistency": "The statement names the function `Reverse`, while the canonical solution and both tests use `ReverseString`.",
    }, overrides={
        "Randomness/Non-reproducible": "The full test iterates over a Go map, whose order is random, but every case is checked independently, so the outcome does not depend on the order.",
    }, key_points=["Statement/test function name mismatch (Reverse vs ReverseString)."]),
    reasoning='''
Statement: Reverse. Tests: ReverseString. That is a naming inconsistency; code written from the statement will not compile against the tests. Map iteration order in the full test is random but each case is independent, so no randomness problem. Fail on naming.
''',
)
