#!/bin/sh
# `clusterbench --version` names the commit the binary was built from, read at build time: HEAD of
# the source tree now (the build ran just before the tests), "-dirty" when tracked files differ.
#   version_test.sh CLUSTERBENCH SOURCE_DIR
set -eu
got=$("$1" --version)
if ! want=$(git -C "$2" rev-parse --short=12 HEAD 2>/dev/null); then
  want=unknown
elif [ -n "$(git -C "$2" status --porcelain --untracked-files=no)" ]; then
  want="$want-dirty"
fi
case $got in
  *"($want)") echo "version_test: $got" ;;
  *) echo "version_test: '$got' does not name the commit $want" >&2; exit 1 ;;
esac
