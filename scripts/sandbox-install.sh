#!/usr/bin/env bash
# Installs the local sandbox: bubblewrap, the language toolchains Debian 12 can run, `tsx`, and
# the unprivileged `verity-sandbox` user the sandbox drops to. Run as root on Debian/Ubuntu.
# Idempotent: re-running only installs what is missing.
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

PACKAGES=(
  bubblewrap
  util-linux # prlimit, setpriv
  procps
  ca-certificates
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
  golang-go
  rustc
  cargo
  perl
)

# Install only what is missing so a re-run is fast and does not touch held packages.
missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
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
