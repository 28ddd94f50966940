#!/usr/bin/env bash
# Prepares the Swift container image (Ubuntu, minimized) for make test and make dist-check in the workflows:
# git trusts the checkout (the container runs as root, the workspace belongs to the runner), dpkg installs man
# pages again, and `man` is the real one instead of the minimized image's stub (what Ubuntu's unminimize does).
set -euo pipefail
git config --global --add safe.directory "${GITHUB_WORKSPACE:-$PWD}"
rm -f /etc/dpkg/dpkg.cfg.d/excludes
if [ "$(dpkg-divert --truename /usr/bin/man)" = /usr/bin/man.REAL ]; then
    rm -f /usr/bin/man
    dpkg-divert --quiet --remove --rename /usr/bin/man
fi
