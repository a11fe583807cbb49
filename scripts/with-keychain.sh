#!/usr/bin/env bash
# Runs a command with a real, unlocked OS keychain on a headless Linux box: a private
# D-Bus session plus gnome-keyring's Secret Service, unlocked with a throwaway password
# in a throwaway XDG_RUNTIME_DIR / HOME, so the user's own keyring is never touched.
#   bash scripts/with-keychain.sh npx vitest run src-main/secrets/keytar-secret-store.keychain.test.ts
# Needs: apt-get install -y --no-install-recommends gnome-keyring dbus libsecret-1-dev
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keychain: $tool is not installed (apt-get install -y --no-install-recommends gnome-keyring dbus)" >&2
    exit 127
  fi
done

if [ "${1:-}" != "--inside" ]; then
  exec dbus-run-session -- bash "$0" --inside "$@"
fi
shift

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_RUNTIME_DIR="$scratch/run"
export HOME="$scratch/home"
export XDG_DATA_HOME="$HOME/.local/share"
mkdir -p "$XDG_RUNTIME_DIR" "$XDG_DATA_HOME" && chmod 700 "$XDG_RUNTIME_DIR"

# --unlock reads the login password from stdin and creates/unlocks the "login" collection.
eval "$(printf 'hearth-test' | gnome-keyring-daemon --unlock --components=secrets --daemonize)"
export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
export HEARTH_KEYCHAIN_TEST=1
"$@"
