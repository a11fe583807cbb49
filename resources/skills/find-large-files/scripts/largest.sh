#!/bin/sh
# The largest folders and files under a path. Reads only; deletes nothing.
# Usage: largest.sh [path] [count]
set -eu
root="${1:-.}"
count="${2:-15}"
echo "Largest folders under $root:"
du -xk "$root" 2>/dev/null | sort -rn | head -n "$count" | awk '{ printf "%8.1f MB  %s\n", $1 / 1024, substr($0, index($0, $2)) }'
echo
echo "Largest files under $root:"
find "$root" -xdev -type f -exec du -k {} + 2>/dev/null | sort -rn | head -n "$count" | awk '{ printf "%8.1f MB  %s\n", $1 / 1024, substr($0, index($0, $2)) }'
