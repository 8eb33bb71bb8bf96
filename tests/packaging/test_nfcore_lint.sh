#!/usr/bin/env bash
# nf-core's own module linter on every module, offline (nfcore_lint.py says how).
# Usage: test_nfcore_lint.sh BUILD_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/checks_venv.sh"
command -v git > /dev/null || { echo "test_nfcore_lint.sh: git is missing: run scripts/install-deps.sh" >&2; exit 1; }
"$py" "$here/nfcore_lint.py" "$repo"
