# Source this (`. scripts/use-node-22.sh`) to get Node.js 22 LTS, the runtime package.json's
# `engines` names, on PATH. When the machine's own `node` is older, it uses the official
# Node 22 binary that the npm registry publishes as the package node-linux-<arch>, installed
# once into a cache directory. .ci/run sources it; so can developers on such a machine.
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null; then
  _arch="$(uname -m)"
  case "$_arch" in x86_64) _arch=x64 ;; aarch64) _arch=arm64 ;; esac
  _node_cache="${XDG_CACHE_HOME:-$HOME/.cache}/chat-service/node-22"
  if [ ! -x "$_node_cache/node_modules/node-linux-$_arch/bin/node" ]; then
    echo "Installing Node.js 22 (node-linux-$_arch@22 from the npm registry) into $_node_cache" >&2
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$_node_cache" "node-linux-$_arch@22" >&2
  fi
  export PATH="$_node_cache/node_modules/node-linux-$_arch/bin:$PATH"
  unset _arch _node_cache
fi
