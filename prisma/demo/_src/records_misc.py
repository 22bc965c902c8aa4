"""Shell, Perl, Ruby, PHP, Kotlin, Scala, Swift and C# records."""

RECORDS = []


def add(**kw):
    RECORDS.append(kw)


# ----------------------------------------------------------------- shell ---

add(
    language="shell", title="Validate an IPv4 address", difficulty="easy",
    extra={"index": 7, "tags": ["validation", "regex"]},
    question=r'''
**Problem: IPv4 Address Validation**

Write a Bash function `is_valid_ipv4` that takes one argument and prints `valid` if it is a dotted-decimal IPv4 address, otherwise `invalid`. It returns exit status 0 for valid input and 1 otherwise.

A valid address has exactly four parts separated by single dots. Each part consists only of decimal digits, has a value from 0 to 255, and has no leading zeros (the part `0` itself is allowed, `01` is not). No other characters, including spaces, are allowed.

**Example Usage:**
```bash
is_valid_ipv4 "192.168.1.1"   # prints: valid
is_valid_ipv4 "256.1.1.1"     # prints: invalid
```
''',
    solution=r'''
is_valid_ipv4() {
    local ip="$1"
    if [[ ! "$ip" =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
        echo "invalid"
        return 1
    fi
    local IFS='.'
    local -a parts
    read -r -a parts <<< "$ip"
    local p
    for p in "${parts[@]}"; do
        if (( ${#p} > 3 )); then
            echo "invalid"
            return 1
        fi
        if (( ${#p} > 1 )) && [[ "$p" == 0* ]]; then
            echo "invalid"
            return 1
        fi
        if (( 10#$p > 255 )); then
            echo "invalid"
            return 1
        fi
    done
    echo "valid"
    return 0
}
''',
    demo=r'''
check_ip() {
    local input="$1" expected="$2" got
    got=$(is_valid_ipv4 "$input")
    if [[ "$got" != "$expected" ]]; then
        echo "Test failed: is_valid_ipv4 '$input' printed '$got', expected '$expected'"
        exit 1
    fi
}

check_ip "192.168.1.1" "valid"
check_ip "256.1.1.1" "invalid"
echo "All tests passed"
''',
    full=r'''
check_ip() {
    local input="$1" expected="$2" got
    got=$(is_valid_ipv4 "$input")
    if [[ "$got" != "$expected" ]]; then
        echo "Test failed: is_valid_ipv4 '$input' printed '$got', expected '$expected'"
        exit 1
    fi
}

check_ip "192.168.1.1" "valid"
check_ip "256.1.1.1" "invalid"
check_ip "0.0.0.0" "valid"
check_ip "255.255.255.255" "valid"
check_ip "01.2.3.4" "invalid"
check_ip "1.2.3" "invalid"
check_ip "1.2.3.4.5" "invalid"
check_ip "" "invalid"
check_ip "a.b.c.d" "invalid"
check_ip "1.2.3.4 " "invalid"
check_ip "1..2.3" "invalid"
check_ip "1000.1.1.1" "invalid"
check_ip "10.0.0.255" "valid"
if ! is_valid_ipv4 "8.8.8.8" > /dev/null; then
    echo "Test failed: exit status for a valid address should be 0"
    exit 1
fi
if is_valid_ipv4 "8.8.8" > /dev/null; then
    echo "Test failed: exit status for an invalid address should be 1"
    exit 1
fi
echo "All tests passed"
''',
    valid=True, flaw=None,
    explanation="Valid: leading zeros, range, part count and stray characters are all specified; the exit-status checks match the stated contract.",
    critic=dict(name="is_valid_ipv4"),
    reasoning='''
is_valid_ipv4 consistent; output strings valid/invalid and exit codes are specified. "01.2.3.4" invalid because of the leading-zero rule; "1.2.3.4 " invalid because spaces are not allowed. Pass.
''',
)

add(
    language="shell", title="Character frequency table", difficulty="medium",
    extra={"index": 24, "seed": "sh-freq-6", "tags": ["text-processing", "sort"]},
    question=r'''
**Problem: Character Frequency**

Write a Bash function `char_frequency` that takes one argument, an ASCII string, and prints how often each character occurs, one line per distinct character in the form `<char>: <count>`.

- Space characters are not counted.
- Characters are case-sensitive (`A` and `a` are different).
- Lines are ordered by count, highest first; equal counts are ordered by the character's byte value (ASCII order, e.g. `!` < `1` < `A` < `a`).
- If there is nothing to count, print nothing.

**Example Usage:**
```bash
char_frequency "hello"
# l: 2
# e: 1
# h: 1
# o: 1
```
''',
    solution=r'''
char_frequency() {
    local text="$1"
    printf '%s' "$text" | tr -d ' ' | fold -w1 | LC_ALL=C sort | uniq -c \
        | LC_ALL=C sort -k1,1nr -k2,2 | awk '{ print $2 ": " $1 }'
}
''',
    demo=r'''
expected=$'l: 2\ne: 1\nh: 1\no: 1'
got=$(char_frequency "hello")
if [[ "$got" != "$expected" ]]; then
    echo "Test failed for 'hello': got '$got'"
    exit 1
fi

expected=$'z: 3'
got=$(char_frequency "zzz")
if [[ "$got" != "$expected" ]]; then
    echo "Test failed for 'zzz': got '$got'"
    exit 1
fi
echo "All tests passed"
''',
    full=r'''
run_case() {
    local input="$1" expected="$2" got
    got=$(char_frequency "$input")
    if [[ "$got" != "$expected" ]]; then
        echo "Test failed for '$input': got '$got', expected '$expected'"
        exit 1
    fi
}

run_case "hello" $'l: 2\ne: 1\nh: 1\no: 1'
run_case "zzz" $'z: 3'
run_case "" ""
run_case "   " ""
run_case "aab b" $'a: 2\nb: 2'
run_case "Aa" $'A: 1\na: 1'
run_case "a1!a" $'a: 2\n!: 1\n1: 1'
run_case "mississippi" $'i: 4\ns: 4\np: 2\nm: 1'
echo "All tests passed"
''',
    valid=True, flaw=None,
    explanation="Valid: the ordering (count desc, then byte order) and the empty-output case are specified, so every expected table is determined.",
    critic=dict(name="char_frequency", style="fenced"),
    reasoning='''
char_frequency consistent. mississippi: i=4, s=4, p=2, m=1; i < s in ASCII, so "i: 4" first. "a1!a": a=2 then ! (33) before 1 (49). Output format "<char>: <count>" stated. Pass.
''',
)

add(
    language="shell", title="Count non-empty lines of a file", difficulty="easy",
    flaw="environment-dependence", valid=False, expected_execution="any",
    extra={"index": 55, "tags": ["files"]},
    question=r'''
**Problem: Count Non-Empty Lines**

Write a Bash function `count_nonempty_lines` that takes a file path and prints the number of lines in the file that contain at least one non-whitespace character. If the file does not exist, print `0`.

**Example Usage:**
```bash
printf 'a\n\n  \nb\n' > /tmp/example.txt
count_nonempty_lines /tmp/example.txt   # prints: 2
```
''',
    solution=r'''
count_nonempty_lines() {
    local path="$1"
    if [[ ! -f "$path" ]]; then
        echo 0
        return 0
    fi
    grep -c '[^[:space:]]' "$path" || true
}
''',
    demo=r'''
tmp=$(mktemp)
printf 'a\n\n  \nb\n' > "$tmp"
got=$(count_nonempty_lines "$tmp")
rm -f "$tmp"
if [[ "$got" != "2" ]]; then
    echo "Test failed: expected 2, got $got"
    exit 1
fi
got=$(count_nonempty_lines /nonexistent/file.txt)
if [[ "$got" != "0" ]]; then
    echo "Test failed: expected 0 for a missing file, got $got"
    exit 1
fi
echo "All tests passed"
''',
    full=r'''
check() {
    local got="$1" expected="$2" label="$3"
    if [[ "$got" != "$expected" ]]; then
        echo "Test failed ($label): expected $expected, got $got"
        exit 1
    fi
}

tmp=$(mktemp)
printf 'a\n\n  \nb\n' > "$tmp"
check "$(count_nonempty_lines "$tmp")" 2 "mixed lines"
printf '' > "$tmp"
check "$(count_nonempty_lines "$tmp")" 0 "empty file"
printf 'one\ntwo\nthree' > "$tmp"
check "$(count_nonempty_lines "$tmp")" 3 "no trailing newline"
printf '\t\n \n' > "$tmp"
check "$(count_nonempty_lines "$tmp")" 0 "whitespace only"
rm -f "$tmp"
check "$(count_nonempty_lines /nonexistent/file.txt)" 0 "missing file"
check "$(count_nonempty_lines /etc/hosts)" 7 "system hosts file"
echo "All tests passed"
''',
    explanation="The last full-test case expects /etc/hosts to have exactly 7 non-empty lines, which held in the generator's container but depends on the machine running the test. Visible as an absolute system path in the test; here it fails or passes depending on the host.",
    critic=dict(name="count_nonempty_lines", fails={
        "Other Issues": "The full test reads /etc/hosts and expects 7 non-empty lines; the content of that file depends on the execution environment, so the expected value is not reproducible.",
    }, overrides={
        "Randomness/Non-reproducible": "No random numbers are used; see Other Issues for an environment dependency.",
    }, key_points=["Test depends on the contents of /etc/hosts on the test machine."]),
    reasoning='''
count_nonempty_lines consistent. Temporary files via mktemp are fine. But `count_nonempty_lines /etc/hosts` == 7 assumes a particular system file. In a different container or on a developer machine this number differs. Fail (environment dependency, reported under other issues).
''',
)

# ------------------------------------------------------------------ perl ---

add(
    language="perl", title="Caesar cipher", difficulty="easy",
    extra={"index": 10, "tags": ["strings", "cipher"]},
    question=r'''
**Problem: Caesar Cipher**

Write a Perl subroutine `caesar_cipher($text, $shift)` that shifts every ASCII letter of `$text` by `$shift` positions in the alphabet, wrapping around (`z` + 1 = `a`) and preserving case. All other characters are unchanged. `$shift` may be negative or larger than 26.

**Example Usage:**
```perl
caesar_cipher("abc", 1);             # "bcd"
caesar_cipher("Hello, World!", 13);  # "Uryyb, Jbeyq!"
```
''',
    solution=r'''
use strict;
use warnings;

sub caesar_cipher {
    my ($text, $shift) = @_;
    $shift = $shift % 26;
    my $out = '';
    for my $ch (split //, $text) {
        if ($ch =~ /[a-z]/) {
            $out .= chr((ord($ch) - 97 + $shift) % 26 + 97);
        } elsif ($ch =~ /[A-Z]/) {
            $out .= chr((ord($ch) - 65 + $shift) % 26 + 65);
        } else {
            $out .= $ch;
        }
    }
    return $out;
}
''',
    demo=r'''
sub test_demo {
    die "Test failed: abc/1" unless caesar_cipher("abc", 1) eq "bcd";
    die "Test failed: rot13" unless caesar_cipher("Hello, World!", 13) eq "Uryyb, Jbeyq!";
    print "All tests passed\n";
}

test_demo();
''',
    full=r'''
sub test_full {
    die "Test failed: abc/1" unless caesar_cipher("abc", 1) eq "bcd";
    die "Test failed: rot13" unless caesar_cipher("Hello, World!", 13) eq "Uryyb, Jbeyq!";
    die "Test failed: wrap" unless caesar_cipher("xyz", 3) eq "abc";
    die "Test failed: negative" unless caesar_cipher("abc", -1) eq "zab";
    die "Test failed: full turn" unless caesar_cipher("abc", 26) eq "abc";
    die "Test failed: empty" unless caesar_cipher("", 5) eq "";
    die "Test failed: large shift" unless caesar_cipher("Zz", 53) eq "Aa";
    die "Test failed: non-letters" unless caesar_cipher("123 !?", 7) eq "123 !?";
    print "All tests passed\n";
}

test_full();
''',
    valid=True, flaw=None,
    explanation="Valid: wrap-around, case preservation, negative and large shifts are stated; 53 mod 26 = 1 gives 'Aa' from 'Zz'.",
    critic=dict(name="caesar_cipher", style="string"),
    reasoning='''
caesar_cipher consistent. Negative shift -1: 'a' -> 'z', stated as allowed. Shift 53 = 2*26 + 1, so Zz -> Aa. Non-letters unchanged. Pass.
''',
)

add(
    language="perl", title="Parse a CSV line", difficulty="medium",
    extra={"index": 30, "seed": "pl-csv-2", "tags": ["parsing", "csv"]},
    question=r'''
**Problem: Parse One CSV Line**

Write a Perl subroutine `parse_csv_line($line)` that splits one line of CSV into fields and returns them as an **array reference**.

- Fields are separated by commas.
- A field may be enclosed in double quotes; inside quotes, commas are literal and `""` stands for one `"` character. The enclosing quotes are not part of the value.
- Spaces are kept as they are (no trimming).
- An empty line is one empty field: `[""]`. A line with `n` commas outside quotes always has `n + 1` fields.

**Example Usage:**
```perl
parse_csv_line('a,b,c');              # ["a", "b", "c"]
parse_csv_line('"hello, world",42');  # ["hello, world", "42"]
```
''',
    solution=r'''
use strict;
use warnings;

sub parse_csv_line {
    my ($line) = @_;
    my @fields;
    my $field = '';
    my $in_quotes = 0;
    my @chars = split //, $line;
    my $i = 0;
    while ($i < @chars) {
        my $c = $chars[$i];
        if ($in_quotes) {
            if ($c eq '"') {
                if ($i + 1 < @chars && $chars[$i + 1] eq '"') {
                    $field .= '"';
                    $i++;
                } else {
                    $in_quotes = 0;
                }
            } else {
                $field .= $c;
            }
        } elsif ($c eq '"') {
            $in_quotes = 1;
        } elsif ($c eq ',') {
            push @fields, $field;
            $field = '';
        } else {
            $field .= $c;
        }
        $i++;
    }
    push @fields, $field;
    return \@fields;
}
''',
    demo=r'''
sub fields_equal {
    my ($got, $expected) = @_;
    return 0 unless @$got == @$expected;
    for my $i (0 .. $#$got) {
        return 0 unless $got->[$i] eq $expected->[$i];
    }
    return 1;
}

die "Test failed: simple" unless fields_equal(parse_csv_line('a,b,c'), ['a', 'b', 'c']);
die "Test failed: quoted comma" unless fields_equal(parse_csv_line('"hello, world",42'), ['hello, world', '42']);
print "All tests passed\n";
''',
    full=r'''
sub fields_equal {
    my ($got, $expected) = @_;
    return 0 unless @$got == @$expected;
    for my $i (0 .. $#$got) {
        return 0 unless $got->[$i] eq $expected->[$i];
    }
    return 1;
}

die "Test failed: simple" unless fields_equal(parse_csv_line('a,b,c'), ['a', 'b', 'c']);
die "Test failed: quoted comma" unless fields_equal(parse_csv_line('"hello, world",42'), ['hello, world', '42']);
die "Test failed: empty line" unless fields_equal(parse_csv_line(''), ['']);
die "Test failed: empty middle" unless fields_equal(parse_csv_line('a,,c'), ['a', '', 'c']);
die "Test failed: escaped quotes" unless fields_equal(parse_csv_line('"say ""hi""",x'), ['say "hi"', 'x']);
die "Test failed: lone comma" unless fields_equal(parse_csv_line(','), ['', '']);
die "Test failed: empty quoted" unless fields_equal(parse_csv_line('"",""'), ['', '']);
die "Test failed: single" unless fields_equal(parse_csv_line('one'), ['one']);
die "Test failed: spaces kept" unless fields_equal(parse_csv_line(' a , b '), [' a ', ' b ']);
print "All tests passed\n";
''',
    valid=True, flaw=None,
    explanation="Valid: the empty-line result, field count rule, quote escaping and no-trimming are all specified.",
    critic=dict(name="parse_csv_line"),
    reasoning='''
parse_csv_line consistent, returns an array ref as stated; fields_equal helper is defined in the tests. ',' -> two empty fields follows from the n+1 rule. Spaces kept, stated. Pass.
''',
)

add(
    language="perl", title="Greatest common divisor", difficulty="easy",
    flaw="exception-swallowing", valid=False, expected_execution="pass",
    extra={"index": 60, "tags": ["math"]},
    question=r'''
**Problem: Greatest Common Divisor**

Write a Perl subroutine `gcd($a, $b)` that returns the greatest common divisor of two integers using Euclid's algorithm. The result is always non-negative; `gcd(0, 0)` is `0`, and `gcd(0, n)` is `|n|`.

**Example Usage:**
```perl
gcd(12, 18);  # 6
gcd(7, 13);   # 1
```
''',
    solution=r'''
use strict;
use warnings;

sub gcd {
    my ($x, $y) = @_;
    $x = abs($x);
    $y = abs($y);
    while ($y != 0) {
        ($x, $y) = ($y, $x % $y);
    }
    return $x;
}
''',
    demo=r'''
sub run_demo_tests {
    eval {
        die "Test failed: gcd(12, 18)" unless gcd(12, 18) == 6;
        die "Test failed: gcd(7, 13)" unless gcd(7, 13) == 1;
    };
    print "All tests passed\n";
}

run_demo_tests();
''',
    full=r'''
sub run_full_tests {
    eval {
        die "Test failed: gcd(12, 18)" unless gcd(12, 18) == 6;
        die "Test failed: gcd(7, 13)" unless gcd(7, 13) == 1;
        die "Test failed: gcd(0, 5)" unless gcd(0, 5) == 5;
        die "Test failed: gcd(0, 0)" unless gcd(0, 0) == 0;
        die "Test failed: gcd(-4, 6)" unless gcd(-4, 6) == 2;
        die "Test failed: gcd(100, 75)" unless gcd(100, 75) == 25;
        die "Test failed: gcd(17, 17)" unless gcd(17, 17) == 17;
        die "Test failed: large" unless gcd(1071, 462) == 21;
    };
    print "All tests passed\n";
}

run_full_tests();
''',
    explanation="Both tests wrap their checks in eval { ... } and never look at $@, so a failing check is silently discarded and 'All tests passed' is always printed: the tests cannot detect a wrong solution. An annotator sees it by reading the eval block, or by making the solution return 0 in the scratch editor and running: it still passes.",
    critic=dict(name="gcd"),
    reasoning='''
gcd consistent. Values: gcd(1071, 462) = 21 (Euclid: 1071 = 2*462 + 147, 462 = 3*147 + 21, 147 = 7*21). gcd(-4, 6) = 2 non-negative as stated. gcd(0, 0) = 0 stated. The tests die with "Test failed" on mismatch. Pass.
''',
)

# ------------------------------------------------------------------ ruby ---

add(
    language="ruby", title="Flatten a nested hash", difficulty="medium",
    extra={"index": 13, "tags": ["hash", "recursion"]},
    question=r'''
**Problem: Flatten a Nested Hash**

Write a Ruby method `flatten_hash(hash)` that flattens nested hashes into a single-level hash whose keys are the paths joined with `.`.

- Keys of the result are strings (`key.to_s` for each path element).
- Values that are non-empty hashes are flattened recursively.
- Every other value is kept as is, including arrays (not descended into), `nil`, and empty hashes (`{}`).
- An empty input returns an empty hash.

**Example Usage:**
```ruby
flatten_hash({ a: 1, b: { c: 2, d: { e: 3 } } })
# => { "a" => 1, "b.c" => 2, "b.d.e" => 3 }
```
''',
    solution=r'''
def flatten_hash(hash, prefix = nil)
  hash.each_with_object({}) do |(key, value), result|
    full_key = prefix ? "#{prefix}.#{key}" : key.to_s
    if value.is_a?(Hash) && !value.empty?
      result.merge!(flatten_hash(value, full_key))
    else
      result[full_key] = value
    end
  end
end
''',
    demo=r'''
def test_demo
  raise "Test failed: nested" unless flatten_hash({ a: 1, b: { c: 2, d: { e: 3 } } }) == { "a" => 1, "b.c" => 2, "b.d.e" => 3 }
  raise "Test failed: empty" unless flatten_hash({}) == {}
  puts "All tests passed"
end

test_demo
''',
    full=r'''
def test_full
  raise "Test failed: nested" unless flatten_hash({ a: 1, b: { c: 2, d: { e: 3 } } }) == { "a" => 1, "b.c" => 2, "b.d.e" => 3 }
  raise "Test failed: empty" unless flatten_hash({}) == {}
  raise "Test failed: empty nested hash" unless flatten_hash({ "x" => {} }) == { "x" => {} }
  raise "Test failed: arrays kept" unless flatten_hash({ a: [1, { b: 2 }] }) == { "a" => [1, { b: 2 }] }
  raise "Test failed: integer keys" unless flatten_hash({ 1 => { 2 => 3 } }) == { "1.2" => 3 }
  raise "Test failed: nil value" unless flatten_hash({ a: nil }) == { "a" => nil }
  raise "Test failed: deep" unless flatten_hash({ a: { b: { c: { d: "deep" } } } }) == { "a.b.c.d" => "deep" }
  raise "Test failed: siblings" unless flatten_hash({ a: { x: 1 }, b: { x: 2 } }) == { "a.x" => 1, "b.x" => 2 }
  puts "All tests passed"
end

test_full
''',
    valid=True, flaw=None,
    explanation="Valid: string keys, arrays not descended, empty hashes and nil kept are all stated; Ruby hash equality ignores order, so the tests are deterministic.",
    critic=dict(name="flatten_hash"),
    reasoning='''
flatten_hash consistent (the optional prefix parameter does not change the public call). Empty nested hash kept as {} is stated; arrays not descended is stated; integer keys stringified via to_s stated. Hash == is order-independent. Pass.
''',
)

add(
    language="ruby", title="Spiral matrix order", difficulty="medium",
    extra={"index": 25, "seed": "rb-spiral-1", "tags": ["matrix", "simulation"]},
    question=r'''
**Problem: Spiral Order**

Write a Ruby method `spiral_order(matrix)` that returns the elements of a rectangular matrix (an array of equal-length rows) in clockwise spiral order, starting at the top-left corner and moving right first. An empty matrix (`[]` or `[[]]`) returns `[]`.

**Example Usage:**
```ruby
spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]])  # => [1, 2, 3, 6, 9, 8, 7, 4, 5]
spiral_order([])                                  # => []
```
''',
    solution=r'''
def spiral_order(matrix)
  result = []
  return result if matrix.empty? || matrix[0].empty?

  top = 0
  bottom = matrix.size - 1
  left = 0
  right = matrix[0].size - 1
  while top <= bottom && left <= right
    (left..right).each { |c| result << matrix[top][c] }
    top += 1
    (top..bottom).each { |r| result << matrix[r][right] }
    right -= 1
    if top <= bottom
      right.downto(left) { |c| result << matrix[bottom][c] }
      bottom -= 1
    end
    if left <= right
      bottom.downto(top) { |r| result << matrix[r][left] }
      left += 1
    end
  end
  result
end
''',
    demo=r'''
def test_demo
  raise "Test failed: 3x3" unless spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == [1, 2, 3, 6, 9, 8, 7, 4, 5]
  raise "Test failed: empty" unless spiral_order([]) == []
  puts "All tests passed"
end

test_demo
''',
    full=r'''
def test_full
  raise "Test failed: 3x3" unless spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == [1, 2, 3, 6, 9, 8, 7, 4, 5]
  raise "Test failed: empty" unless spiral_order([]) == []
  raise "Test failed: empty row" unless spiral_order([[]]) == []
  raise "Test failed: 3x4" unless spiral_order([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]) == [1, 2, 3, 4, 8, 12, 11, 10, 9, 5, 6, 7]
  raise "Test failed: single" unless spiral_order([[1]]) == [1]
  raise "Test failed: column" unless spiral_order([[1], [2], [3]]) == [1, 2, 3]
  raise "Test failed: row" unless spiral_order([[1, 2, 3]]) == [1, 2, 3]
  raise "Test failed: 2x2" unless spiral_order([[1, 2], [3, 4]]) == [1, 2, 4, 3]
  raise "Test failed: 4x2" unless spiral_order([[1, 2], [3, 4], [5, 6], [7, 8]]) == [1, 2, 4, 6, 8, 7, 5, 3]
  puts "All tests passed"
end

test_full
''',
    valid=True, flaw=None,
    explanation="Valid: direction, starting corner and the empty cases are specified; the single-row/column and 4x2 cases are correct spirals.",
    critic=dict(name="spiral_order", style="string"),
    reasoning='''
spiral_order consistent. 3x4: top row 1-4, right column 8, 12, bottom row reversed 11, 10, 9, left column up 5, then inner 6, 7. 4x2: 1, 2, then 4, 6, 8 down, 7 left, then 5, 3 up. Pass.
''',
)

add(
    language="ruby", title="Count words", difficulty="easy",
    flaw="non-executable-test", valid=False, expected_execution="fail",
    extra={"index": 66, "tags": ["strings"]},
    question=r'''
**Problem: Count Words**

Write a Ruby method `count_words(text)` that returns the number of words in `text`, where words are maximal runs of non-whitespace characters. An empty or whitespace-only string has 0 words.

**Example Usage:**
```ruby
count_words("hello world")   # => 2
count_words("   ")           # => 0
```
''',
    solution=r'''
def count_words(text)
  text.split.size
end
''',
    demo=r'''
def test_demo
  assert_equal 2, count_words("hello world")
  assert_equal 0, count_words("   ")
  puts "All tests passed"
end

test_demo
''',
    full=r'''
def test_full
  assert_equal 2, count_words("hello world")
  assert_equal 0, count_words("   ")
  assert_equal 0, count_words("")
  assert_equal 1, count_words("word")
  assert_equal 3, count_words("  leading and trailing  ")
  assert_equal 4, count_words("tabs\tand\nnew lines")
  assert_equal 2, count_words("punctuation, counts!")
  puts "All tests passed"
end

test_full
''',
    explanation="The tests call assert_equal, which plain Ruby does not define (no require 'minitest' or test class), so both tests crash with NoMethodError before checking anything. Running either test shows the error immediately.",
    critic=dict(name="count_words", style="fenced", fails={
        "Non-executable Tests": "`assert_equal` is used without requiring Minitest or Test::Unit and without defining it; the script raises NoMethodError.",
    }, key_points=["Test helper assert_equal is undefined in a plain Ruby script."]),
    reasoning='''
count_words consistent and the expected counts are right ("tabs\tand\nnew lines" = 4). However assert_equal is not available in a plain `ruby file.rb` run: no require of minitest, no class inheriting from Minitest::Test. Tests are non-executable. Fail.
''',
)

# ------------------------------------------------------------------- php ---

add(
    language="php", title="Slugify a title", difficulty="easy",
    extra={"index": 16, "tags": ["strings", "regex", "web"]},
    question=r'''
**Problem: Slugify**

Write a PHP function `slugify(string $s): string` that turns a title into a URL slug:

1. Convert ASCII letters to lowercase.
2. Replace every run of characters that are not `a-z` or `0-9` with a single `-`. (Bytes of non-ASCII characters count as such characters.)
3. Remove `-` from the start and the end.

**Example Usage:**
```php
slugify("Hello World");            // "hello-world"
slugify("  PHP: 8.2 is here!  ");  // "php-8-2-is-here"
```
''',
    solution=r'''
<?php

function slugify(string $s): string {
    $s = strtolower($s);
    $s = preg_replace('/[^a-z0-9]+/', '-', $s);
    return trim($s, '-');
}
''',
    demo=r'''
<?php

function demoTesting() {
    assert(slugify("Hello World") === "hello-world");
    assert(slugify("  PHP: 8.2 is here!  ") === "php-8-2-is-here");
    echo "All tests passed\n";
}

demoTesting();
?>
''',
    full=r'''
<?php

function fullTesting() {
    assert(slugify("Hello World") === "hello-world");
    assert(slugify("  PHP: 8.2 is here!  ") === "php-8-2-is-here");
    assert(slugify("") === "");
    assert(slugify("---") === "");
    assert(slugify("already-slug") === "already-slug");
    assert(slugify("a__b") === "a-b");
    assert(slugify("123 ABC") === "123-abc");
    assert(slugify("Ünïcode") === "n-code");
    echo "All tests passed\n";
}

fullTesting();
?>
''',
    valid=True, flaw=None,
    explanation="Valid: step 2 says non-ASCII bytes are separators, which makes 'Ünïcode' -> 'n-code' well defined; the other cases follow directly.",
    critic=dict(name="slugify"),
    reasoning='''
slugify consistent; the test ends with ?> as required. "Ünïcode": Ü and ï are multi-byte, treated as separators per step 2 -> "-n-code" -> trimmed "n-code". Surprising but specified. Pass.
''',
)

add(
    language="php", title="Binary search", difficulty="easy",
    extra={"index": 34, "seed": "php-bsearch-5", "tags": ["search"]},
    question=r'''
**Problem: Binary Search**

Write a PHP function `binarySearch(array $arr, int $target): int` that returns the index of `$target` in `$arr`, or `-1` if it is not present. `$arr` is a list of distinct integers sorted in ascending order (keys `0..n-1`). Your solution must run in `O(log n)`.

**Example Usage:**
```php
binarySearch([1, 3, 5, 7, 9], 7);  // 3
binarySearch([1, 3, 5], 4);        // -1
```
''',
    solution=r'''
<?php

function binarySearch(array $arr, int $target): int {
    $lo = 0;
    $hi = count($arr) - 1;
    while ($lo <= $hi) {
        $mid = intdiv($lo + $hi, 2);
        if ($arr[$mid] === $target) {
            return $mid;
        }
        if ($arr[$mid] < $target) {
            $lo = $mid + 1;
        } else {
            $hi = $mid - 1;
        }
    }
    return -1;
}
''',
    demo=r'''
<?php

function demoTesting() {
    if (binarySearch([1, 3, 5, 7, 9], 7) !== 3) { echo "Test failed: find 7\n"; exit(1); }
    if (binarySearch([1, 3, 5], 4) !== -1) { echo "Test failed: missing 4\n"; exit(1); }
    echo "All tests passed\n";
}

demoTesting();
?>
''',
    full=r'''
<?php

function fullTesting() {
    $cases = [
        [[1, 3, 5, 7, 9], 7, 3],
        [[1, 3, 5], 4, -1],
        [[], 1, -1],
        [[5], 5, 0],
        [[5], 1, -1],
        [[-10, -3, 0, 8], -10, 0],
        [[-10, -3, 0, 8], 8, 3],
        [[-10, -3, 0, 8], 100, -1],
        [range(0, 998, 2), 500, 250],
    ];
    foreach ($cases as [$arr, $target, $expected]) {
        $got = binarySearch($arr, $target);
        if ($got !== $expected) {
            echo "Test failed: target $target expected $expected got $got\n";
            exit(1);
        }
    }
    echo "All tests passed\n";
}

fullTesting();
?>
''',
    valid=True, flaw=None,
    explanation="Valid: -1 for a missing target is stated; range(0, 998, 2) is [0, 2, ..., 998] so 500 is at index 250.",
    critic=dict(name="binarySearch", style="fenced"),
    reasoning='''
binarySearch consistent; missing -> -1 specified. range(0, 998, 2) includes 998, 500 / 2 = index 250. Tests print "Test failed" and exit(1) on mismatch; test ends with ?>. Pass.
''',
)

add(
    language="php", title="Capitalize words", difficulty="easy",
    flaw="irrelevant-requirement", valid=False, expected_execution="pass",
    extra={"index": 69, "tags": ["strings"]},
    question=r'''
**Problem: Capitalize Words**

Write a PHP function `capitalizeWords(string $s): string` that upper-cases the first letter of every word in `$s`. Words are separated by spaces. The other letters of each word are left unchanged.

**Example Usage:**
```php
capitalizeWords("hello world");  // "Hello World"
capitalizeWords("php is fun");   // "Php Is Fun"
```
''',
    solution=r'''
<?php

function capitalizeWords(string $s): string {
    $words = preg_split('/\s+/', trim($s), -1, PREG_SPLIT_NO_EMPTY);
    return implode(' ', array_map('ucfirst', $words));
}
''',
    demo=r'''
<?php

function demoTesting() {
    assert(capitalizeWords("hello world") === "Hello World");
    assert(capitalizeWords("php is fun") === "Php Is Fun");
    echo "All tests passed\n";
}

demoTesting();
?>
''',
    full=r'''
<?php

function fullTesting() {
    assert(capitalizeWords("hello world") === "Hello World");
    assert(capitalizeWords("php is fun") === "Php Is Fun");
    assert(capitalizeWords("a") === "A");
    assert(capitalizeWords("") === "");
    assert(capitalizeWords("iPhone case") === "IPhone Case");
    assert(capitalizeWords("  hello   world ") === "Hello World");
    assert(capitalizeWords("ALREADY UPPER") === "ALREADY UPPER");
    echo "All tests passed\n";
}

fullTesting();
?>
''',
    explanation="The full test requires leading/trailing spaces to be removed and runs of spaces collapsed ('  hello   world ' -> 'Hello World'), which the statement never asks for; a solution that only capitalises (e.g. ucwords) fails. Found by comparing that case with the statement.",
    critic=dict(name="capitalizeWords", fails={
        "Irrelevant Requirements": "The case capitalizeWords(\"  hello   world \") === \"Hello World\" also requires trimming and collapsing whitespace, which is not part of the statement.",
    }, key_points=["Tests require whitespace normalisation that the statement does not mention."]),
    reasoning='''
capitalizeWords consistent. Most cases follow the statement. But "  hello   world " -> "Hello World" checks whitespace trimming/collapsing, not requested: the statement says only the first letter of each word changes and other letters are left unchanged, which suggests spaces should be preserved. A natural ucwords() implementation returns "  Hello   World ". Fail (irrelevant requirement).
''',
)

# ---------------------------------------------------------- kotlin etc. ---

add(
    language="kotlin", title="Leap year", difficulty="easy",
    extra={"index": 18, "tags": ["dates"]},
    question=r'''
**Problem: Leap Year**

Write a Kotlin function `fun isLeapYear(year: Int): Boolean` that returns `true` for leap years of the Gregorian calendar: years divisible by 4, except years divisible by 100 that are not divisible by 400.

**Example Usage:**
```kotlin
isLeapYear(2024)  // true
isLeapYear(1900)  // false
```
''',
    solution=r'''
fun isLeapYear(year: Int): Boolean =
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
''',
    demo=r'''
fun demoTesting() {
    check(isLeapYear(2024)) { "2024 should be a leap year" }
    check(!isLeapYear(1900)) { "1900 should not be a leap year" }
    println("All tests passed")
}

demoTesting()
''',
    full=r'''
fun fullTesting() {
    check(isLeapYear(2024)) { "2024 should be a leap year" }
    check(!isLeapYear(1900)) { "1900 should not be a leap year" }
    check(isLeapYear(2000)) { "2000 should be a leap year" }
    check(!isLeapYear(2023)) { "2023 should not be a leap year" }
    check(!isLeapYear(2100)) { "2100 should not be a leap year" }
    check(isLeapYear(2400)) { "2400 should be a leap year" }
    check(isLeapYear(4)) { "4 should be a leap year" }
    check(!isLeapYear(1)) { "1 should not be a leap year" }
    println("All tests passed")
}

fullTesting()
''',
    valid=True, flaw=None,
    explanation="Valid: the Gregorian rule is stated in full and each case (2000, 1900, 2100, 2400) follows from it. Not runnable here (no Kotlin toolchain); checked by reading.",
    critic=dict(name="isLeapYear"),
    reasoning='''
isLeapYear consistent. 2000 and 2400 divisible by 400 -> leap; 1900, 2100 divisible by 100 only -> not leap. check() throws IllegalStateException on failure. Pass.
''',
)

add(
    language="scala", title="Sum of squares", difficulty="easy",
    extra={"index": 37, "tags": ["math", "collections"]},
    question=r'''
**Problem: Sum of Squares**

Write a Scala function `def sumOfSquares(xs: List[Int]): Long` that returns the sum of the squares of the elements of `xs`. Compute in `Long` so that large values such as `Int.MaxValue` do not overflow. The empty list gives `0`.

**Example Usage:**
```scala
sumOfSquares(List(1, 2, 3))  // 14L
sumOfSquares(Nil)            // 0L
```
''',
    solution=r'''
def sumOfSquares(xs: List[Int]): Long =
  xs.map(x => x.toLong * x.toLong).sum
''',
    demo=r'''
def demoTesting(): Unit = {
  assert(sumOfSquares(List(1, 2, 3)) == 14L)
  assert(sumOfSquares(Nil) == 0L)
  println("All tests passed")
}

demoTesting()
''',
    full=r'''
def fullTesting(): Unit = {
  assert(sumOfSquares(List(1, 2, 3)) == 14L)
  assert(sumOfSquares(Nil) == 0L)
  assert(sumOfSquares(List(-4)) == 16L)
  assert(sumOfSquares(List(0, 0, 0)) == 0L)
  assert(sumOfSquares(List(10, -10)) == 200L)
  assert(sumOfSquares(List(Int.MaxValue)) == 4611686014132420609L)
  assert(sumOfSquares(List(46341, 46341)) == 4294976562L)
  println("All tests passed")
}

fullTesting()
''',
    valid=True, flaw=None,
    explanation="Valid: Long arithmetic is required by the statement; (2^31 - 1)^2 = 4611686014132420609 and 2 * 46341^2 = 4294976562. Not runnable here (no Scala toolchain); checked by reading.",
    critic=dict(name="sumOfSquares", style="string"),
    reasoning='''
sumOfSquares consistent. Int.MaxValue^2 = 4611686014132420609 fits in Long. 46341^2 = 2147488281, times 2 = 4294976562. Pass.
''',
)

add(
    language="swift", title="Factorial", difficulty="easy",
    extra={"index": 42, "tags": ["math", "recursion"]},
    question=r'''
**Problem: Factorial**

Write a Swift function `func factorial(_ n: Int) -> Int` that returns `n!` for `0 <= n <= 20` (`0! = 1`). The largest value, `20!`, fits in a 64-bit `Int`.

**Example Usage:**
```swift
factorial(5)  // 120
factorial(0)  // 1
```
''',
    solution=r'''
func factorial(_ n: Int) -> Int {
    precondition(n >= 0, "n must be non-negative")
    var result = 1
    if n >= 2 {
        for i in 2...n {
            result *= i
        }
    }
    return result
}
''',
    demo=r'''
func demoTesting() {
    assert(factorial(5) == 120, "factorial(5)")
    assert(factorial(0) == 1, "factorial(0)")
    print("All tests passed")
}

demoTesting()
''',
    full=r'''
func fullTesting() {
    assert(factorial(5) == 120, "factorial(5)")
    assert(factorial(0) == 1, "factorial(0)")
    assert(factorial(1) == 1, "factorial(1)")
    assert(factorial(2) == 2, "factorial(2)")
    assert(factorial(10) == 3628800, "factorial(10)")
    assert(factorial(13) == 6227020800, "factorial(13)")
    assert(factorial(20) == 2432902008176640000, "factorial(20)")
    print("All tests passed")
}

fullTesting()
''',
    valid=True, flaw=None,
    explanation="Valid: 0! = 1 is stated and 20! = 2432902008176640000 fits in Int64. Not runnable here (no Swift toolchain); checked by reading.",
    critic=dict(name="factorial"),
    reasoning='''
factorial consistent. 10! = 3628800, 13! = 6227020800, 20! = 2432902008176640000 < 2^63. The loop 2...n is guarded by n >= 2, so n = 0 and 1 do not form an invalid range. Pass.
''',
)

add(
    language="csharp", title="Count decimal digits", difficulty="easy",
    extra={"index": 50, "tags": ["math"]},
    question=r'''
**Problem: Count Digits**

Write a C# static class `DigitCounter` with a method `public static int CountDigits(long n)` that returns the number of decimal digits of `n`, ignoring the sign. `CountDigits(0)` is `1`. The method must work for every `long`, including `long.MinValue`.

**Example Usage:**
```csharp
DigitCounter.CountDigits(12345);  // 5
DigitCounter.CountDigits(-7);     // 1
```
''',
    solution=r'''
using System;

public static class DigitCounter
{
    public static int CountDigits(long n)
    {
        if (n == 0)
        {
            return 1;
        }
        ulong m = n < 0 ? (ulong)(-(n + 1)) + 1UL : (ulong)n;
        int count = 0;
        while (m > 0)
        {
            m /= 10;
            count++;
        }
        return count;
    }
}
''',
    demo=r'''
using System;

public class Program
{
    static void RunTests()
    {
        if (DigitCounter.CountDigits(12345) != 5) throw new Exception("Test failed: CountDigits(12345)");
        if (DigitCounter.CountDigits(-7) != 1) throw new Exception("Test failed: CountDigits(-7)");
        Console.WriteLine("All tests passed");
    }
}
''',
    full=r'''
using System;

public class Program
{
    static void RunTests()
    {
        if (DigitCounter.CountDigits(12345) != 5) throw new Exception("Test failed: CountDigits(12345)");
        if (DigitCounter.CountDigits(-7) != 1) throw new Exception("Test failed: CountDigits(-7)");
        if (DigitCounter.CountDigits(0) != 1) throw new Exception("Test failed: CountDigits(0)");
        if (DigitCounter.CountDigits(9) != 1) throw new Exception("Test failed: CountDigits(9)");
        if (DigitCounter.CountDigits(10) != 2) throw new Exception("Test failed: CountDigits(10)");
        if (DigitCounter.CountDigits(-1000) != 4) throw new Exception("Test failed: CountDigits(-1000)");
        if (DigitCounter.CountDigits(long.MaxValue) != 19) throw new Exception("Test failed: long.MaxValue");
        if (DigitCounter.CountDigits(long.MinValue) != 19) throw new Exception("Test failed: long.MinValue");
        Console.WriteLine("All tests passed");
    }
}
''',
    valid=True, flaw=None,
    explanation="Valid: the sign is ignored, 0 has one digit, and long.MinValue (19 digits) is handled without negating it directly. Not runnable here (no .NET toolchain); checked by reading.",
    critic=dict(name="CountDigits", style="fenced"),
    reasoning='''
DigitCounter.CountDigits consistent; RunTests becomes Main in the sandbox. long.MaxValue = 9223372036854775807 (19 digits); long.MinValue = -9223372036854775808 (19 digits), and -(n + 1) avoids overflow. Pass.
''',
)
