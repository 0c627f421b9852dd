#!/usr/bin/env bash
# Installs the system packages the workspace needs, if any is missing: libgit2 and libyaml for
# componentctl, SQLite for the Storage component, pkg-config to find them, strace for the fault trials,
# libcurl for the App's plugin downloads (opened at run time, never linked), and python3 for the runtime
# plugin tests' feed server (a small static server on loopback).
set -euo pipefail
packages=(libgit2-dev libyaml-dev libsqlite3-dev pkg-config strace libcurl4)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
