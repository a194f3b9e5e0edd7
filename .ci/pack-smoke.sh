#!/usr/bin/env bash
# The package as a user gets it: pack the tarball (prepack builds dist/), install it into a fresh
# project under a temp folder (its package.json has no "type": CommonJS), and there run the bin
# (--version, `run` on the bundled corpus) and a TypeScript file using the library, type-checked
# under NodeNext strict and run on plain Node (.ci/pack-smoke/), and README's "As a library" check.mjs
# block as written.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$(pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/routecert-pack-smoke.XXXXXX")
trap 'rm -rf "$root"' EXIT

tarball=$(npm pack --silent --pack-destination "$root" | tail -n 1)
echo "== packed $tarball: $(tar -tzf "$root/$tarball" | wc -l) files"
if tar -tzf "$root/$tarball" | grep -E '\.test\.|^package/src/|^package/suites/|^package/probes/'; then
  echo "the tarball ships tests or sources (above)" >&2
  exit 1
fi

project="$root/project"
mkdir -p "$project"
cp .ci/pack-smoke/library.mts .ci/pack-smoke/routecert.config.ts .ci/pack-smoke/tsconfig.json "$project/"
typescript=$(node -p "require('./package.json').devDependencies.typescript")
types_node=$(node -p "require('./package.json').devDependencies['@types/node']")
cd "$project"
printf '{ "name": "smoke", "version": "1.0.0", "private": true }\n' > package.json
npm install --no-audit --no-fund --loglevel=error "$root/$tarball" "typescript@$typescript" "@types/node@$types_node"
if [ -e node_modules/tsx ]; then echo "tsx was installed with routecert: it must be a dev dependency" >&2; exit 1; fi

version=$(npx routecert --version)
expected=$(node -p "require('routecert/package.json').version")
[ "$version" = "$expected" ] || { echo "routecert --version printed '$version', expected $expected" >&2; exit 1; }
echo "== routecert --version: $version"

npx routecert run --no-certify --reports "$root/reports" --quiet

npx tsc -p tsconfig.json
node out/library.mjs

# README "As a library": the check.mjs block, extracted as written and run on plain Node.
awk '/^\/\/ check\.mjs/{f=1} f&&/^```/{exit} f' "$checkout/README.md" > check.mjs
[ -s check.mjs ] || { echo "README.md has no check.mjs block (a line starting with // check.mjs)" >&2; exit 1; }
printed=$(node check.mjs)
[ "$printed" = "accepted structured_output" ] || { echo "README check.mjs printed '$printed', expected 'accepted structured_output'" >&2; exit 1; }
echo "== README check.mjs: $printed"
echo "== pack smoke passed"
