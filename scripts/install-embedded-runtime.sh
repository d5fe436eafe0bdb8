#!/usr/bin/env bash
# Installs node-llama-cpp, the optional runtime of the embedded model (llm.provider
# "local-embedded"), for the tests and for development: only the CPU build of this platform, in
# .embedded-runtime/, linked into node_modules. A plain `npm install node-llama-cpp` would also
# pull the CUDA and Vulkan builds (~700 MB on linux-x64); users who want GPU offload install it that
# way. The version is the one package.json names as the optional peer dependency.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(node -p "require('./package.json').peerDependencies['node-llama-cpp'].replace(/^[\\^~]/, '')")
platform=$(node -p "({'linux-x64':'linux-x64','linux-arm64':'linux-arm64','darwin-arm64':'mac-arm64-metal','darwin-x64':'mac-x64','win32-x64':'win-x64','win32-arm64':'win-arm64'})[process.platform + '-' + process.arch] ?? ''")
if [ -z "$platform" ]; then
  echo "install-embedded-runtime: no prebuilt node-llama-cpp for $(node -p 'process.platform + "-" + process.arch')" >&2
  exit 1
fi
prefix=.embedded-runtime
mkdir -p "$prefix"
[ -f "$prefix/package.json" ] || echo '{"name":"deepsearch-embedded-runtime","private":true}' >"$prefix/package.json"
# --omit=optional skips the GPU builds; the platform package named here is installed all the same.
npm install --prefix "$prefix" --no-audit --no-fund --no-package-lock --omit=optional \
  "node-llama-cpp@$version" "@node-llama-cpp/$platform@$version"
mkdir -p node_modules
ln -sfn "../$prefix/node_modules/node-llama-cpp" node_modules/node-llama-cpp
node -e "import('node-llama-cpp').then(() => console.log('node-llama-cpp $version ($platform) ready'))"
