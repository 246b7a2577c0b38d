#!/usr/bin/env bash
# Runs the CLI of this git checkout, building it first when it has not been built. The GitHub
# Action and the pre-commit hooks run from a checkout of this repository: dist/ is not committed
# and the package is on no registry, so the checkout builds itself, once, from its lock file.
#
#   scripts/run-from-checkout.sh scan sessions/
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundle="$root/dist/bundle/cli.cjs"

build() {
  echo "transcript-doctor: building $root (once per checkout)" >&2
  # --include=dev: the build needs TypeScript and esbuild, even where NODE_ENV=production says omit them.
  # --ignore-scripts: no dependency's install script runs; `npm run build` is the only step needed.
  (cd "$root" && npm ci --include=dev --ignore-scripts --no-audit --no-fund --loglevel=error && npm run --silent build) >&2
}

if [ ! -f "$bundle" ]; then
  mkdir -p "$root/dist"
  # Hooks and jobs started together build once: the others wait, then find the bundle.
  exec 9>"$root/dist/.build-lock"
  if command -v flock >/dev/null; then flock 9; fi
  if [ ! -f "$bundle" ] && ! build; then
    # A half-built dist/ would pass for a built one next time.
    rm -rf "$root/dist"
    echo "transcript-doctor: building $root failed (it needs Node 20 or newer and npm)" >&2
    exit 2
  fi
  exec 9>&-
fi
exec node "$root/bin/transcript-doctor.js" "$@"
