#!/usr/bin/env bash
# Checks the GitHub Actions workflows offline: actionlint (expressions, actions and their inputs, shell
# scripts' syntax) and the workflow JSON schema (check-jsonschema's vendored copy). scripts/setup.sh installs both.
set -euo pipefail
cd "$(dirname "$0")/.."
workflows=()
for file in .github/workflows/*.yml .github/workflows/*.yaml; do [ -f "$file" ] && workflows+=("$file"); done
if [ ${#workflows[@]} -eq 0 ]; then
  echo "workflows: none (componentctl ci github writes one)"
  exit 0
fi
for tool in actionlint check-jsonschema; do
  command -v "$tool" > /dev/null || { echo "workflows: $tool is not installed; run scripts/setup.sh" >&2; exit 1; }
done
actionlint "${workflows[@]}"
check-jsonschema --builtin-schema vendor.github-workflows "${workflows[@]}"
echo "workflows: ${#workflows[@]} checked (actionlint, schema)"
