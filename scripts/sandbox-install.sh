#!/usr/bin/env bash
# Installs the local sandbox: bubblewrap, the language toolchains Debian 12 can run, `tsx`, and
# the unprivileged `verity-sandbox` user the sandbox drops to. Run as root on Debian/Ubuntu.
# Idempotent: re-running only installs what is missing.
#
# Toolchains closer to the reference sandbox than Debian 12's defaults (Go 1.19, Rust 1.63):
# - Go 1.23 from Debian's own bookworm-backports suite, pinned so that nothing but Go comes from it;
# - Rust 1.96 from Debian 12's rustc-web / cargo-web (security-supported; they replace rustc/cargo).
#
# Not installed here (not usable from Debian 12 packages): C#, Dart, Julia, Kotlin, Scala,
# Swift. Route them to the acb backend, e.g. VERITY_SANDBOX_ROUTES=kotlin:acb,scala:acb.
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
  g++
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
)
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

# Since Go 1.20 the standard library ships as source only, and each sandbox job starts with an empty
# build cache: without this every `go test` compiles fmt, testing, … from scratch (about a minute on
# 2 cores). GODEBUG=installgoroot=all puts compiled archives under GOROOT/pkg, read-only for jobs,
# which the Go recipe uses with the same setting and CGO_ENABLED=0. Redone when they are stale
# (after a Go upgrade).
go_bin="/usr/lib/go-${GO_VERSION}/bin/go"
[[ -x "$go_bin" ]] || go_bin="$(command -v go || true)"
if [[ -n "$go_bin" ]]; then
  go_cache="$(mktemp -d)"
  go_env=(env GODEBUG=installgoroot=all CGO_ENABLED=0 GOFLAGS= GOTOOLCHAIN=local GOCACHE="$go_cache")
  # Captured first: `go list | grep -q` would kill go list with SIGPIPE and, under pipefail, hide "stale".
  stale="$("${go_env[@]}" "$go_bin" list -f '{{if .Stale}}{{.ImportPath}}{{end}}' std)"
  if [[ -n "$stale" ]]; then
    echo "sandbox-install: compiling the Go standard library into $("$go_bin" env GOROOT)/pkg"
    "${go_env[@]}" "$go_bin" install std
  fi
  rm -rf "$go_cache"
fi

# tsx runs TypeScript inside the sandbox; install it globally (under /usr or /usr/local).
if ! tsx_installed="$(npm ls -g --depth=0 tsx 2>/dev/null)" || ! grep -q "tsx@${TSX_VERSION}" <<<"$tsx_installed"; then
  echo "sandbox-install: installing tsx@${TSX_VERSION} globally"
  npm install -g "tsx@${TSX_VERSION}"
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

echo "sandbox-install: done; check with: node scripts/verity.mjs sandbox doctor"
