#!/usr/bin/env bash
# Installs the local sandbox: bubblewrap, the language toolchains, `tsx`, and the unprivileged
# `verity-sandbox` user the sandbox drops to. Run as root on Debian/Ubuntu.
# Idempotent: re-running only installs what is missing. Arguments are more Debian packages to
# install in the same apt run (CI adds Chromium and PostgreSQL: one update, one install).
#
# Where a package registry has them, the reference sandbox image's own versions, under
# /opt/verity (root-owned, read-only to the sandbox user, bound read-only into every run), each
# checked against a sha256 pinned below:
# - Go 1.24.5: the Go toolchain module from the Go module proxy, as GOTOOLCHAIN fetches it;
# - JUnit console 1.11.4, org.json 20241224 and Gson 2.11.0 (Maven Central);
# - Kotlin 1.9.24's compiler and Scala 3.3.6's compiler (Maven Central);
# - the Rust crates rand 0.4, regex 1 and md5 0.7.0 (crates.io), built once into rlibs;
# - the Python libraries of the reference image's `pip install` (numpy, pandas, scipy, scikit-learn,
#   opencv, pyarrow, pytest, …; PyPI wheels pinned with their sha256 in sandbox-python-libs/).
# The reference image's C++ libraries (Boost, Eigen, nlohmann-json, OpenSSL, …) and shell tools
# (bc, jq) come from Debian.
# Where a registry cannot be reached, Debian's packages stand in (Go 1.23 from bookworm-backports,
# Debian's junit5; no crates, no Kotlin, no Scala) and the script says which languages then differ.
# Rust 1.96 is Debian 12's rustc-web / cargo-web (security-supported; they replace rustc/cargo).
#
# Not installed here (no package anywhere reachable): C#, Dart, Julia, Swift. Route them to the
# acb backend, e.g. VERITY_SANDBOX_ROUTES=csharp:acb,swift:acb.
#
# Where the registries are (a mirror, or a dead address to try the fallback, docs/sandbox.md):
#   VERITY_GOPROXY           the Go module proxy (default: $GOPROXY, else proxy.golang.org)
#   VERITY_MAVEN_REPOSITORY  a Maven repository used instead of Maven Central (a mirror of it)
#   VERITY_CRATES_REGISTRY   a sparse index used instead of crates.io, e.g. sparse+https://mirror/index/
#   VERITY_PYPI_INDEX        a package index used instead of PyPI, e.g. https://mirror/simple/
#   VERITY_TOOLCHAINS_DIR    where the registries' toolchains go (default /opt/verity, the folder the
#                            sandbox binds; anything else only for trying the script out)
set -euo pipefail

if [[ "$(id -u)" -ne 0 ]]; then
  echo "sandbox-install: run as root (sudo npm run sandbox:install)" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "sandbox-install: apt-get not found; this script supports Debian/Ubuntu only" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# Another process may hold the dpkg lock (unattended upgrades, a parallel install).
APT=(apt-get -o DPkg::Lock::Timeout=600)

TSX_VERSION="4.23.15"
SANDBOX_USER="verity-sandbox"
GO_VERSION="1.23"
TOOLCHAINS_DIR="${VERITY_TOOLCHAINS_DIR:-/opt/verity}"
GO_PROXY="${VERITY_GOPROXY:-${GOPROXY:-https://proxy.golang.org,direct}}"
MAVEN_REPOSITORY="${VERITY_MAVEN_REPOSITORY:-}"
CRATES_REGISTRY="${VERITY_CRATES_REGISTRY:-}"
PYPI_INDEX="${VERITY_PYPI_INDEX:-}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Languages that, after this run, differ from the reference image's toolchain (reported at the end),
# a line each in this file: the parts below that note them run in background processes.
parts_dir="$(mktemp -d)"
trap 'rm -rf "$parts_dir"' EXIT
differ() { printf '%s\n' "$1" >>"$parts_dir/differs"; }
BACKPORTS_SOURCES="/etc/apt/sources.list.d/verity-backports.sources"
BACKPORTS_PIN="/etc/apt/preferences.d/verity-backports"

# Writes FILE with CONTENT unless it already holds exactly that (apt reads it at the next update).
write_if_changed() {
  local file="$1" content="$2"
  if [[ ! -f "$file" ]] || [[ "$(cat "$file")" != "$content" ]]; then
    echo "sandbox-install: writing $file"
    printf '%s\n' "$content" >"$file"
  fi
}

# shellcheck source=/dev/null
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
go_packages=(golang-go)
if [[ "$codename" == bookworm ]]; then
  go_packages=(golang-go "golang-${GO_VERSION}-go")
  write_if_changed "$BACKPORTS_SOURCES" "# Verity's sandbox install: Go comes from here (see $BACKPORTS_PIN).
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
  # Package-specific pins win over the catch-all: only the Go packages may come from backports.
  write_if_changed "$BACKPORTS_PIN" "# Verity's sandbox install: only Go is taken from bookworm-backports.
Package: *
Pin: release n=bookworm-backports
Pin-Priority: -1

Package: golang golang-go golang-src golang-doc golang-${GO_VERSION} golang-${GO_VERSION}-go golang-${GO_VERSION}-src golang-${GO_VERSION}-doc
Pin: release n=bookworm-backports
Pin-Priority: 500"
else
  echo "sandbox-install: not Debian 12 (bookworm); using this system's Go and Rust packages" >&2
fi

PACKAGES=(
  bubblewrap
  util-linux # prlimit, setpriv
  procps
  ca-certificates
  tzdata # the sandbox runs in the reference's time zone (Asia/Shanghai)
  python3
  python3-pip # installs the Python libraries below into their own folder, never into the system's
  g++
  # The reference image's C++ libraries (its `apt-get install` for the cpp sandbox), where small:
  # Boost's headers and the compiled libraries a record may link (-lboost_…), not libboost-all-dev
  # (MPI, Python bindings, … : 400 MB); no OpenCV (650 MB), protobuf, curl or libxml2 (docs/sandbox.md).
  libboost-dev
  libboost-system-dev
  libboost-filesystem-dev
  libboost-regex-dev
  libboost-program-options-dev
  libboost-thread-dev
  libboost-date-time-dev
  libboost-serialization-dev
  libboost-iostreams-dev
  libboost-random-dev
  libboost-graph-dev
  libeigen3-dev
  nlohmann-json3-dev
  libssl-dev # -lssl, -lcrypto
  libgtest-dev
  libgmp-dev
  libsqlite3-dev
  zlib1g-dev
  libjsoncpp-dev
  libsodium-dev
  libcrypto++-dev
  libgsl-dev
  bc # the reference image's shell tools
  jq
  openjdk-17-jdk-headless
  junit5
  nodejs
  npm
  elixir
  php-cli
  racket
  r-base-core
  ruby
  "${go_packages[@]}"
  perl
  maven # fetches the JVM toolchains from Maven Central
)
PACKAGES+=("$@")
# Debian 12's current Rust; on other releases the plain packages.
if [[ "$codename" == bookworm ]]; then
  PACKAGES+=(rustc-web cargo-web)
else
  PACKAGES+=(rustc cargo)
fi

# Install only what is missing so a re-run is fast and does not touch held packages.
missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
# An older golang-go already installed is upgraded to the pinned backport (so `go` is Go 1.23 too).
if [[ "$codename" == bookworm ]]; then
  go_installed="$(dpkg-query -W -f='${Version}' golang-go 2>/dev/null || true)"
  if [[ -n "$go_installed" ]] && dpkg --compare-versions "$go_installed" lt "2:${GO_VERSION}~"; then
    missing+=(golang-go)
  fi
fi
# nodejs may come from elsewhere (nvm, NodeSource, a tarball); only install Debian's when no node.
if command -v node >/dev/null; then
  filtered=()
  for pkg in "${missing[@]}"; do
    [[ "$pkg" == nodejs || "$pkg" == npm ]] || filtered+=("$pkg")
  done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi

if ((${#missing[@]} > 0)); then
  echo "sandbox-install: installing ${missing[*]}"
  "${APT[@]}" update
  # rustc-web and cargo-web replace Debian's rustc and cargo, which apt removes.
  "${APT[@]}" install -y --no-install-recommends "${missing[@]}"
else
  echo "sandbox-install: all packages present"
fi

# The sandbox only binds system folders; node must live in one of them.
node_path="$(readlink -f "$(command -v node)")"
case "$node_path" in
  /usr/* | /bin/* | /opt/*) ;;
  *) echo "sandbox-install: warning: node at $node_path is outside /usr and /opt; the sandbox cannot see it" >&2 ;;
esac

# Runs as the reference sandbox's toolchains need: files root-owned, readable and executable by all,
# writable by none but root.
seal() {
  chown -R root:root "$1"
  chmod -R u+rwX,go+rX,go-w "$1"
}

# The sha256 of a folder's jars (their names and contents), to compare with a pinned value.
jars_sha256() {
  (cd "$1" && sha256sum -- *.jar | LC_ALL=C sort -k2) | sha256sum | cut -d' ' -f1
}

# Points LINK at TARGET (a folder under /opt/verity or a Debian path) unless it already does.
link_to() {
  local target="$1" link="$2"
  if [[ "$(readlink "$link" 2>/dev/null || true)" != "$target" ]]; then
    rm -rf "$link"
    ln -s "$target" "$link"
  fi
}

mkdir -p "$TOOLCHAINS_DIR"
seal "$TOOLCHAINS_DIR"

# --- Go 1.24.5 ------------------------------------------------------------------------------------
# The reference image runs Go 1.24.5. The Go command fetches a toolchain as the module
# golang.org/toolchain@v0.0.1-go<version>.<os>-<arch> from the Go module proxy (checked against the
# checksum database); the same module, unpacked, is a complete GOROOT. Its zip's sha256 is pinned.
GO_REFERENCE="1.24.5"
GO_TOOLCHAIN_ZIP_SHA256="b10ba2160d4c5132f25709331d80d35b6ccc31136eeda584dd7ff5fc40514f2f"
install_go() {
  go_root="$TOOLCHAINS_DIR/go-$GO_REFERENCE"
  debian_go="/usr/lib/go-${GO_VERSION}/bin/go"
  [[ -x "$debian_go" ]] || debian_go="$(command -v go || true)"
  if [[ ! -x "$go_root/bin/go" ]] && [[ -n "$debian_go" ]]; then
    echo "sandbox-install: fetching Go $GO_REFERENCE (the Go toolchain module)"
    go_fetch="$(mktemp -d)"
    if env GOTOOLCHAIN="go$GO_REFERENCE" GOPROXY="$GO_PROXY" GOMODCACHE="$go_fetch/mod" GOPATH="$go_fetch/path" GOFLAGS= \
      GOENV=off "$debian_go" version >/dev/null 2>"$go_fetch/log"; then
      module="golang.org/toolchain@v0.0.1-go${GO_REFERENCE}.linux-amd64"
      zip="$go_fetch/mod/cache/download/golang.org/toolchain/@v/v0.0.1-go${GO_REFERENCE}.linux-amd64.zip"
      if [[ "$(sha256sum "$zip" | cut -d' ' -f1)" == "$GO_TOOLCHAIN_ZIP_SHA256" ]]; then
        rm -rf "$go_root.new"
        cp -r "$go_fetch/mod/$module" "$go_root.new"
        seal "$go_root.new"
        mv "$go_root.new" "$go_root"
      else
        echo "sandbox-install: warning: the Go $GO_REFERENCE toolchain's sha256 is not the pinned one; not installed" >&2
      fi
    else
      echo "sandbox-install: warning: could not fetch Go $GO_REFERENCE ($(tail -1 "$go_fetch/log")); using Debian's Go" >&2
    fi
    chmod -R u+w "$go_fetch" && rm -rf "$go_fetch"
  fi
  if [[ -x "$go_root/bin/go" ]]; then
    link_to "go-$GO_REFERENCE" "$TOOLCHAINS_DIR/go"
  elif [[ -n "$debian_go" ]]; then
    link_to "$(dirname "$(dirname "$(readlink -f "$debian_go")")")" "$TOOLCHAINS_DIR/go"
    differ "go (Debian's $("$debian_go" env GOVERSION 2>/dev/null || echo go), reference Go $GO_REFERENCE)"
  fi

  # Since Go 1.20 the standard library ships as source only, and each sandbox job starts with an empty
  # build cache: without this every `go test` compiles fmt, testing, … from scratch (about a minute on
  # 2 cores). GODEBUG=installgoroot=all puts compiled archives under GOROOT/pkg, read-only for jobs,
  # which the Go recipe uses with the same setting and CGO_ENABLED=0. Redone when they are stale
  # (after a Go upgrade).
  go_bin="$TOOLCHAINS_DIR/go/bin/go"
  if [[ -x "$go_bin" ]]; then
    go_cache="$(mktemp -d)"
    go_env=(env GODEBUG=installgoroot=all CGO_ENABLED=0 GOFLAGS= GOTOOLCHAIN=local GOENV=off GOCACHE="$go_cache")
    # Captured first: `go list | grep -q` would kill go list with SIGPIPE and, under pipefail, hide "stale".
    stale="$("${go_env[@]}" "$go_bin" list -f '{{if .Stale}}{{.ImportPath}}{{end}}' std)"
    if [[ -n "$stale" ]]; then
      echo "sandbox-install: compiling the Go standard library into $("${go_env[@]}" "$go_bin" env GOROOT)/pkg"
      "${go_env[@]}" "$go_bin" install std
    fi
    rm -rf "$go_cache"
  fi

  # `go test` also vets the package it tests, and vet's facts about every standard package imported
  # live only in the build cache, which each job starts empty: they were 2–3 s of a trivial Go test's
  # 2.7 s here (docs/benchmarks.md, "Issue 35: Go's per-run cost"). A seed of that cache, made once
  # from a test importing the standard packages records use, is copied into each job's own cache
  # before `go test` (the Go recipe): the seed is root-owned and read-only, each job's copy its own.
  go_seed="$TOOLCHAINS_DIR/go-cache-seed"
  if [[ -x "$go_bin" ]]; then
    go_version="$(GOTOOLCHAIN=local GOENV=off "$go_bin" env GOVERSION)"
    if [[ "$(cat "$go_seed.version" 2>/dev/null || true)" != "$go_version" ]]; then
      echo "sandbox-install: seeding Go's build cache ($go_seed)"
      seed_work="$(mktemp -d)"
      printf 'module sandbox\n\ngo %s\n' "${go_version#go}" >"$seed_work/go.mod"
      {
        printf 'package main\n\nimport (\n'
        for pkg in bufio bytes container/heap container/list errors fmt math math/big math/bits math/rand \
          os reflect regexp sort strconv strings sync testing time unicode unicode/utf8; do
          printf '\t_ "%s"\n' "$pkg"
        done
        printf ')\n\nfunc TestSeed(t *testing.T) {}\n'
      } | sed 's/_ "testing"/"testing"/' >"$seed_work/seed_test.go"
      # The Go recipe's environment (lib/server/sandbox/recipes/go.ts), so the cache's keys match a job's.
      if (cd "$seed_work" && env -i PATH="$(dirname "$go_bin"):/usr/bin:/bin" HOME="$seed_work" \
        GODEBUG=installgoroot=all GOCACHE="$seed_work/cache" GOPATH="$seed_work/gopath" \
        GOMODCACHE="$seed_work/gopath/pkg/mod" GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local \
        GOTELEMETRY=off GO111MODULE=on CGO_ENABLED=0 "$go_bin" test -count=1 . >/dev/null); then
        rm -rf "$go_seed"
        cp -r "$seed_work/cache" "$go_seed"
        seal "$go_seed"
        echo "$go_version" >"$go_seed.version"
      else
        echo "sandbox-install: could not seed Go's build cache; Go runs work, a few seconds slower each" >&2
      fi
      chmod -R u+w "$seed_work" && rm -rf "$seed_work"
    fi
  fi
}

# --- JVM toolchains from Maven Central ------------------------------------------------------------
# Maven resolves each set with its dependencies into a staging folder; the set is installed only when
# the sha256 over its jars is the pinned one. A stamp holding that value makes a re-run skip it.
maven_set() {
  local name="$1" pinned="$2" dir="$3"
  shift 3
  [[ "$(cat "$dir/.verity-sha256" 2>/dev/null || true)" == "$pinned" ]] && return 0
  command -v mvn >/dev/null || return 1
  echo "sandbox-install: fetching $name from Maven Central"
  local work deps=""
  work="$(mktemp -d)"
  for coordinate in "$@"; do
    IFS=: read -r group artifact version <<<"$coordinate"
    deps+="<dependency><groupId>$group</groupId><artifactId>$artifact</artifactId><version>$version</version></dependency>"
  done
  local settings=()
  if [[ -n "$MAVEN_REPOSITORY" ]]; then
    printf '%s\n' "<settings><mirrors><mirror><id>verity-mirror</id><mirrorOf>*</mirrorOf>" \
      "<url>$MAVEN_REPOSITORY</url></mirror></mirrors></settings>" >"$work/settings.xml"
    settings=(-s "$work/settings.xml")
  fi
  printf '%s\n' "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>" \
    "<groupId>verity.sandbox</groupId><artifactId>$name</artifactId><version>1</version><packaging>pom</packaging>" \
    "<dependencies>$deps</dependencies></project>" >"$work/pom.xml"
  if ! mvn -B -q "${settings[@]+"${settings[@]}"}" -f "$work/pom.xml" -Dmaven.repo.local="$work/m2" dependency:copy-dependencies \
    -DoutputDirectory="$work/jars" >"$work/log" 2>&1; then
    echo "sandbox-install: warning: could not fetch $name from Maven Central: $(grep -m1 ERROR "$work/log" || tail -1 "$work/log")" >&2
    rm -rf "$work"
    return 1
  fi
  local got
  got="$(jars_sha256 "$work/jars")"
  if [[ "$got" != "$pinned" ]]; then
    echo "sandbox-install: warning: $name's jars have sha256 $got, not the pinned $pinned; not installed" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$dir.new"
  mkdir -p "$dir.new/lib"
  (cd "$work/jars" && sha256sum -- *.jar) >"$dir.new/SHA256SUMS"
  mv "$work/jars"/*.jar "$dir.new/lib/"
  printf '%s\n' "$pinned" >"$dir.new/.verity-sha256"
  seal "$dir.new"
  rm -rf "$dir"
  mv "$dir.new" "$dir"
  rm -rf "$work"
}

# Java: the reference's class path (/opt/java_libs there), under stable names.
install_java() {
  java_libs="$TOOLCHAINS_DIR/java-libs-1.11.4"
  if maven_set java-libs b5014045b36e910c8f5e5a3734f11673914893fd722b20da1016ff8ecb14ed07 "$java_libs" \
    org.junit.platform:junit-platform-console-standalone:1.11.4 org.json:json:20241224 com.google.code.gson:gson:2.11.0; then
    for jar in junit-platform-console-standalone:junit-platform-console-standalone-1.11.4 json:json-20241224 gson:gson-2.11.0; do
      link_to "lib/${jar#*:}.jar" "$java_libs/${jar%%:*}.jar"
    done
    link_to "java-libs-1.11.4" "$TOOLCHAINS_DIR/java"
  else
    # Debian's junit5 (and, when installed, libjson-java / libgoogle-gson-java) under the same names.
    link_to /usr/share/java "$TOOLCHAINS_DIR/java"
    differ "java (Debian's JUnit console, reference JUnit console 1.11.4 with org.json and Gson)"
  fi
}

# Kotlin: the compiler and its scripting plugin laid out as the kotlinc distribution's lib/ (the
# compiler finds the plugin and the standard library there), run by a kotlinc like the original's.
install_kotlin() {
  kotlin_home="$TOOLCHAINS_DIR/kotlin-1.9.24"
  if maven_set kotlin 585da3179f16144c36474e33611e1de16834935a6968d3f1ad11bf2b5baf778a "$kotlin_home" \
    org.jetbrains.kotlin:kotlin-compiler:1.9.24 org.jetbrains.kotlin:kotlin-scripting-compiler:1.9.24 \
    org.jetbrains.kotlin:kotlin-stdlib:1.9.24 org.jetbrains.kotlin:kotlin-script-runtime:1.9.24 \
    org.jetbrains.kotlin:kotlin-reflect:1.9.24; then
    for jar in "$kotlin_home"/lib/*.jar; do
      base="$(basename "$jar" .jar)"
      short="${base%-[0-9]*}"
      [[ "$short" == annotations ]] && continue # kept as annotations-13.0.jar, the name the manifest uses
      [[ -e "$kotlin_home/lib/$short.jar" ]] || ln -s "$base.jar" "$kotlin_home/lib/$short.jar"
    done
    if [[ ! -x "$kotlin_home/bin/kotlinc" ]]; then
      mkdir -p "$kotlin_home/bin"
      cat >"$kotlin_home/bin/kotlinc" <<KOTLINC
#!/bin/sh
# kotlinc 1.9.24 (the compiler from Maven Central); the JVM options are the original launcher's.
# user.home follows HOME: the sandbox user has no home of its own.
exec java -Xmx256M -Xss2m -Duser.home="\${HOME:-/tmp}" -Dkotlin.home="$kotlin_home" \\
  -cp "$kotlin_home/lib/kotlin-compiler.jar" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler "\$@"
KOTLINC
      chmod 755 "$kotlin_home/bin/kotlinc"
      seal "$kotlin_home"
    fi
    link_to "kotlin-1.9.24" "$TOOLCHAINS_DIR/kotlin"
  else
    differ "kotlin (not installed: route it to acb)"
  fi
}

# Scala: Scala 3.3.6's compiler; the Scala recipe runs a script as Ammonite does (see docs/sandbox.md).
install_scala() {
  scala_home="$TOOLCHAINS_DIR/scala-3.3.6"
  if maven_set scala a6d2d0d72338e5fb45925435f9cba8c73d66ede88706cb5b6f007a733c7d5ad4 "$scala_home" \
    org.scala-lang:scala3-compiler_3:3.3.6; then
    link_to "scala-3.3.6" "$TOOLCHAINS_DIR/scala"
  else
    differ "scala (not installed: route it to acb)"
  fi
}

# --- Rust crates ----------------------------------------------------------------------------------
# The reference's Cargo project depends on rand 0.4, regex 1 and md5 0.7.0 and rebuilds them in every
# job. Here they are built once (Cargo.lock pins versions and sha256s) into rlibs every Rust job
# links against read-only: `rustc @extern.args` names them. Rebuilt when rustc or the lock changes.
install_rust_crates() {
  rust_crates="$TOOLCHAINS_DIR/rust-crates"
  # The rustc the sandbox runs (its PATH has /usr only), not a rustup one earlier on root's PATH.
  rustc_bin="/usr/bin/rustc"
  cargo_bin="/usr/bin/cargo"
  rust_stamp="$("$rustc_bin" -vV 2>/dev/null | sha256sum | cut -d' ' -f1)-$(sha256sum "$SCRIPT_DIR/sandbox-rust-crates/Cargo.lock" | cut -d' ' -f1)"
  if [[ -x "$cargo_bin" ]] && [[ "$(cat "$rust_crates/.verity-stamp" 2>/dev/null || true)" != "$rust_stamp" ]]; then
    echo "sandbox-install: building the Rust crates rand, regex and md5"
    rust_work="$(mktemp -d)"
    cp -r "$SCRIPT_DIR/sandbox-rust-crates" "$rust_work/project"
    crates_source=()
    if [[ -n "$CRATES_REGISTRY" ]]; then
      crates_source=(--config 'source.crates-io.replace-with="verity-mirror"'
        --config "source.verity-mirror.registry=\"$CRATES_REGISTRY\"")
    fi
    if (cd "$rust_work/project" && RUSTC="$rustc_bin" CARGO_HOME="$rust_work/cargo" CARGO_TARGET_DIR="$rust_work/target" \
      "$cargo_bin" "${crates_source[@]+"${crates_source[@]}"}" build --locked --quiet >"$rust_work/log" 2>&1); then
      rm -rf "$rust_crates.new"
      mkdir -p "$rust_crates.new/deps"
      cp "$rust_work/target/debug/deps/"*.rlib "$rust_work/target/debug/deps/"*.rmeta "$rust_crates.new/deps/" 2>/dev/null || true
      {
        echo "-L"
        echo "dependency=$rust_crates/deps"
        for crate in rand regex md5; do
          rlib="$(cd "$rust_crates.new/deps" && ls "lib$crate"-*.rlib | head -1)"
          echo "--extern"
          echo "$crate=$rust_crates/deps/$rlib"
        done
      } >"$rust_crates.new/extern.args"
      printf '%s\n' "$rust_stamp" >"$rust_crates.new/.verity-stamp"
      seal "$rust_crates.new"
      rm -rf "$rust_crates"
      mv "$rust_crates.new" "$rust_crates"
    else
      echo "sandbox-install: warning: could not build the Rust crates: $(tail -1 "$rust_work/log")" >&2
    fi
    rm -rf "$rust_work"
  fi
  if [[ ! -s "$rust_crates/extern.args" ]]; then
    # No crates: Rust jobs still run (the argument file is empty), as before.
    mkdir -p "$rust_crates"
    : >"$rust_crates/extern.args"
    seal "$rust_crates"
    differ "rust (no crates: rand, regex and md5 are missing)"
  fi
}

# --- Python libraries -----------------------------------------------------------------------------
# The reference image pip-installs numpy, pandas, scipy, scikit-learn, opencv, pyarrow, pytest, … into
# its Python 3.11. Here the same libraries (requirements.lock: wheels for CPython 3.11 on x86_64, each
# with its sha256; OpenCV's headless build) go into their own folder, read-only to the sandbox, which
# the Python recipe puts on PYTHONPATH; the system's Python is left alone. Reinstalled when the lock
# or /usr/bin/python3 changes.
install_python_libs() {
  PYTHON_LIBS_VERSION="2025.07"
  python_libs="$TOOLCHAINS_DIR/python-libs-$PYTHON_LIBS_VERSION"
  python_lock="$SCRIPT_DIR/sandbox-python-libs/requirements.lock"
  # The python3 the sandbox runs (its PATH has /usr only), not a pyenv one earlier on root's PATH.
  python_bin="/usr/bin/python3"
  python_stamp="$("$python_bin" -VV 2>/dev/null | sha256sum | cut -d' ' -f1)-$(sha256sum "$python_lock" | cut -d' ' -f1)"
  if [[ "$(cat "$python_libs/.verity-stamp" 2>/dev/null || true)" != "$python_stamp" ]]; then
    echo "sandbox-install: installing the Python libraries (numpy, pandas, scipy, …) into $python_libs"
    pypi_index=()
    [[ -n "$PYPI_INDEX" ]] && pypi_index=(--index-url "$PYPI_INDEX")
    python_work="$(mktemp -d)"
    rm -rf "$python_libs.new"
    # --target: the folder, not the system (Debian's pip refuses the system anyway); wheels only, each
    # checked against the lock's sha256; compiled to bytecode now, since jobs cannot write it.
    if "$python_bin" -m pip install --quiet --disable-pip-version-check --no-cache-dir --no-input \
      "${pypi_index[@]+"${pypi_index[@]}"}" --only-binary=:all: --no-deps --require-hashes \
      --target "$python_libs.new" -r "$python_lock" >"$python_work/log" 2>&1; then
      printf '%s\n' "$python_stamp" >"$python_libs.new/.verity-stamp"
      seal "$python_libs.new"
      rm -rf "$python_libs"
      mv "$python_libs.new" "$python_libs"
    else
      echo "sandbox-install: warning: could not install the Python libraries: $(grep -m1 -E 'ERROR' "$python_work/log" || tail -1 "$python_work/log")" >&2
      rm -rf "$python_libs.new"
    fi
    rm -rf "$python_work"
  fi
  if [[ -f "$python_libs/.verity-stamp" ]]; then
    link_to "python-libs-$PYTHON_LIBS_VERSION" "$TOOLCHAINS_DIR/python-libs"
  else
    differ "python (no libraries: numpy, pandas, scipy, … are missing)"
  fi
}

# tsx runs TypeScript inside the sandbox; install it globally (under /usr or /usr/local).
install_tsx() {
  if ! tsx_installed="$(npm ls -g --depth=0 tsx 2>/dev/null)" || ! grep -q "tsx@${TSX_VERSION}" <<<"$tsx_installed"; then
    echo "sandbox-install: installing tsx@${TSX_VERSION} globally"
    npm install -g "tsx@${TSX_VERSION}"
  fi
}

# The parts above are independent (each its own registry, staging folder and place under
# $TOOLCHAINS_DIR): they run side by side, since each mostly waits on its registry, and together
# they took most of a bare machine's install one after the other. Each one's output is printed whole
# when all have ended, with its wall time; a part that fails fails the script, as it did in line.
part_names=()
part_pids=()
run_part() {
  local name="$1"
  shift
  (
    started=$SECONDS
    "$@"
    echo "sandbox-install: $name took $((SECONDS - started)) s"
  ) >"$parts_dir/${#part_names[@]}.log" 2>&1 &
  part_pids+=("$!")
  part_names+=("$name")
}
run_part "Go $GO_REFERENCE" install_go
run_part "Java libraries" install_java
run_part "Kotlin" install_kotlin
run_part "Scala" install_scala
run_part "Rust crates" install_rust_crates
run_part "Python libraries" install_python_libs
run_part "tsx" install_tsx
failed=()
for index in "${!part_pids[@]}"; do
  wait "${part_pids[$index]}" || failed+=("${part_names[$index]}")
  cat "$parts_dir/$index.log"
done
if ((${#failed[@]} > 0)); then
  echo "sandbox-install: failed: ${failed[*]}" >&2
  exit 1
fi

# An unprivileged system user with no login shell and no home; bubblewrap drops to it.
if ! id -u "$SANDBOX_USER" >/dev/null 2>&1; then
  echo "sandbox-install: creating user $SANDBOX_USER"
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$SANDBOX_USER"
fi

# Debian's bubblewrap is not setuid; it needs unprivileged user namespaces.
if [[ -r /proc/sys/kernel/unprivileged_userns_clone ]] &&
  [[ "$(cat /proc/sys/kernel/unprivileged_userns_clone)" == 0 ]]; then
  echo "sandbox-install: enabling kernel.unprivileged_userns_clone"
  sysctl -w kernel.unprivileged_userns_clone=1 || true
fi

if [[ -s "$parts_dir/differs" ]]; then
  echo "sandbox-install: these languages differ from the reference sandbox's toolchains:" >&2
  sed 's/^/  - /' "$parts_dir/differs" >&2
fi
echo "sandbox-install: done; check with: node scripts/verity.mjs sandbox doctor"
