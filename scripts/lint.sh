#!/usr/bin/env bash
# Lints every Swift file of the workspace (what git tracks or would track) with the toolchain's
# `swift format lint` and the repository's .swift-format (4-space indent, 160 columns: what the code
# uses). Fix findings with `swift format --in-place --configuration .swift-format FILE...`. Skips
# componentctl's frozen fixture workspaces: their line numbers are asserted by the tool's tests. Then
# checks the README's and the guides' sentences (scripts/check-prose.py: 60 words at most).
set -euo pipefail
cd "$(dirname "$0")/.."
files=()
while IFS= read -r -d '' file; do
  [[ $file == *.swift && $file != Tools/componentctl/Tests/Fixtures/* && -f $file ]] && files+=("$file")
done < <(git ls-files -z --cached --others --exclude-standard)
swift format lint --strict --configuration .swift-format "${files[@]}"
echo "lint: ${#files[@]} Swift files clean"
scripts/check-prose.py
