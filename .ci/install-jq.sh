#!/usr/bin/env bash
# jq >= 1.7 for the certification of compound-engineering's findings workers on grok/json
# (suites/certify-ce-findings.test.ts). Under jq 1.6 (Debian bookworm's), `jq -e` on empty input
# exits 0 (jqlang/jq#1142, fixed in 1.7), so those workers' grok-cli `.result` probe "succeeds" on
# an empty file and they never publish. Bookworm (and its backports) has no jq 1.7, so this takes
# Debian trixie's jq with the libraries it was built for (libjq1, libonig5, and libc6, whose
# loader runs it) from Debian's archive, into .routecert-tools/jq/ (git-ignored), and writes a
# `jq` wrapper there. Nothing is installed into the system: apt runs on lists of its own.
# Does nothing when the jq on PATH is already >= 1.7, or when .routecert-tools/jq/jq exists.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="$PWD/.routecert-tools/jq"

if command -v jq >/dev/null 2>&1 && ! printf '' | jq -e . >/dev/null 2>&1; then
  echo "== jq on PATH is $(jq --version) (>= 1.7): nothing to install"
  exit 0
fi
if [ -x "$dest/jq" ] && ! printf '' | "$dest/jq" -e . >/dev/null 2>&1; then
  echo "== jq >= 1.7 already in .routecert-tools/jq: $("$dest/jq" --version)"
  exit 0
fi
if [ "$(uname -m)" != x86_64 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "== no jq >= 1.7 here and no way to fetch one (needs apt-get on x86_64); the grok/json certification of the findings workers will be skipped, saying why"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/debs" "$dest"
printf 'deb http://deb.debian.org/debian trixie main\n' > "$work/sources.list"
apt_opts=(-q -o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/lists" -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" update >/dev/null
(cd "$work/debs" && apt-get "${apt_opts[@]}" download jq libjq1 libonig5 libc6 >/dev/null)
rm -rf "$dest/debs-root"
for deb in "$work/debs"/*.deb; do dpkg-deb -x "$deb" "$dest/debs-root"; done
ls "$work/debs" > "$dest/debs.txt"
lib="$dest/debs-root/usr/lib/x86_64-linux-gnu"
cat > "$dest/jq" <<WRAPPER
#!/bin/sh
# jq of Debian trixie ($(grep '^jq_' "$dest/debs.txt")), run by the loader of the libc it was built for.
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$dest/debs-root/usr/bin/jq" "\$@"
WRAPPER
chmod +x "$dest/jq"
if printf '' | "$dest/jq" -e . >/dev/null 2>&1; then
  echo "== the jq installed in .routecert-tools/jq still exits 0 on empty input" >&2
  exit 1
fi
echo "== jq installed in .routecert-tools/jq: $("$dest/jq" --version) ($(tr '\n' ' ' < "$dest/debs.txt"))"
