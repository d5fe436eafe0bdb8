#!/usr/bin/env bash
# The package as users get it: `npm pack`, install the tarball in an empty folder, and run the
# installed `deepsearch` from there (--version, an offline `read` of a local file, and one run of
# code in the sandbox process, whose entry file and permissions depend on the installed layout), and
# import each subpath export. Catches a `files` list that leaves something out, a bin that is not
# executable, a dependency that is only in devDependencies, and shipped code that loads vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $tarball"
if tar -tzf "$work/$tarball" | grep -E '^package/(src/|test/)|\.test\.js$'; then
  echo "the tarball ships test files (above)" >&2
  exit 1
fi
# dist/testing ships (the deepsearch/testing fakes), but nothing shipped may load the test runner.
mkdir "$work/unpacked"
tar -xzf "$work/$tarball" -C "$work/unpacked"
if grep -rlE "from ['\"]vitest['\"]|import\(['\"]vitest['\"]\)" "$work/unpacked/package/dist" --include='*.js'; then
  echo "shipped files import vitest (above)" >&2
  exit 1
fi

# The web UI that `deepsearch serve` shows at /: built into dist/web, found next to dist/server.
# (The listing is read once: `tar | grep -q` would fail under pipefail when grep stops reading early.)
listing="$(tar -tzf "$work/$tarball")"
for file in dist/web/index.html dist/web/app.js dist/web/app.css; do
  if ! grep -qx "package/$file" <<<"$listing"; then
    echo "the tarball lacks $file (the web UI; see scripts/build-web.mjs)" >&2
    exit 1
  fi
done

mkdir "$work/app"
cd "$work/app"
npm init -y >/dev/null
# --prefer-offline: the dependencies are those npm ci just put in the cache.
npm install --no-audit --no-fund --prefer-offline "$work/$tarball" >/dev/null
bin="$work/app/node_modules/.bin/deepsearch"

expected="$(node -p "require('$work/app/node_modules/deepsearch/package.json').version")"
actual="$("$bin" --version)"
if [ "$actual" != "$expected" ]; then
  echo "deepsearch --version printed '$actual', expected '$expected'" >&2
  exit 1
fi

printf '<html><head><title>Packed</title></head><body><article><h1>Packed</h1><p>The installed package reads local files offline.</p></article></body></html>' > page.html
text="$(env -i PATH="$PATH" HOME="$work" DEEPSEARCH_NO_CACHE=1 "$bin" read --format text page.html)"
if ! grep -q 'The installed package reads local files offline.' <<<"$text"; then
  echo "deepsearch read from the installed package printed:" >&2
  echo "$text" >&2
  exit 1
fi
# The coding sandbox: its host process starts from dist/sandbox/sandbox-host-main.js and
# may read only its own folder and the engine's packages, wherever npm put them.
computed="$(env -i PATH="$PATH" HOME="$work" node --input-type=module --eval "
import { createQuickJsCodeRunner } from 'deepsearch';
const runner = createQuickJsCodeRunner({ timeoutSeconds: 5, memoryMb: 16, stackKb: 64, maxOutputChars: 1000, maxLogChars: 100 });
const result = await runner.run({ code: 'return input.reduce((sum, n) => sum + n, 0)', input: [1, 2, 3] });
console.log(JSON.stringify(result.ok ? result.output : result.error));
")"
if [ "$computed" != "6" ]; then
  echo "a coding run from the installed package printed: $computed" >&2
  exit 1
fi
# Every subpath export loads from the installed package (deepsearch/testing without vitest installed).
loaded="$(env -i PATH="$PATH" HOME="$work" node --input-type=module --eval "
const names = [];
for (const specifier of ['deepsearch', 'deepsearch/server', 'deepsearch/providers', 'deepsearch/testing']) {
  const entry = await import(specifier);
  if (Object.keys(entry).length === 0) throw new Error(specifier + ' exports nothing');
  names.push(specifier);
}
console.log(names.join(' '));
")"
if [ "$loaded" != "deepsearch deepsearch/server deepsearch/providers deepsearch/testing" ]; then
  echo "the subpath exports did not all load: $loaded" >&2
  exit 1
fi
echo "packed package OK: deepsearch $actual installs, runs, reads a local file, runs code in its sandbox and loads $loaded"
