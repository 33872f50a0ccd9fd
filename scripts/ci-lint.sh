#!/usr/bin/env bash
# Checks the CI workflows: the templates (templates/ci/github/) and this
# repository's copies (.github/workflows/) must be the same files, and
# actionlint (with shellcheck for the `run:` scripts) must find nothing.
# scripts/install.sh installs both.
set -euo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"

actionlint=.tools/venv/bin/actionlint
[ -x "$actionlint" ] || { echo "actionlint is missing: run scripts/install.sh" >&2; exit 1; }

status=0
for template in templates/ci/github/*.yml; do
    copy=.github/workflows/$(basename "$template")
    if ! cmp -s "$template" "$copy"; then
        echo "$copy differs from $template: copy the template over it (cp $template $copy)" >&2
        status=1
    fi
done
for copy in .github/workflows/*.yml; do
    [ -f "templates/ci/github/$(basename "$copy")" ] || {
        echo "$copy has no template in templates/ci/github/" >&2
        status=1
    }
done

files=(templates/ci/github/*.yml .github/workflows/*.yml)
if "$actionlint" -shellcheck "$(command -v shellcheck)" "${files[@]}"; then
    echo "actionlint: ${#files[@]} workflow files, no problem ($("$actionlint" --version | head -1))"
else
    status=1
fi
exit "$status"
