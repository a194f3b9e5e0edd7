#!/usr/bin/env bash
# The package as a user gets it: pack the tarball (prepack builds dist/), install it into a fresh
# project under a temp folder (its package.json has no "type": CommonJS), and there run the bin
# (--version, `run` on the bundled corpus) and a TypeScript file using the library, type-checked
# under NodeNext strict and run on plain Node (.ci/pack-smoke/).
set -euo pipefail
cd "$(dirname "$0")/.."
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
echo "== pack smoke passed"
