#!/usr/bin/env bash
# The unsafe escapes in the Swift sources: `@exclusivity(unchecked)`, `unowned(unsafe)`,
# `Unmanaged` and `_withUnsafeGuaranteedRef` (and any other underscored standard-library entry
# point, `._name(`). Prints the count per kind and per file (code only: comments are stripped),
# and fails if one appears outside a module's storage file or on a public or open declaration.
# (The public classes' hot fields need none: scripts/exclusivity.sh checks that they stay free of
# dynamic checks without it.)
# Usage: bash scripts/escapes.sh [--quiet]
set -euo pipefail
cd "$(dirname "$0")/.."

# The one storage file per module that may hold escapes, each with its invariants.
allowed=(
    Sources/HitTestCore/Core/Storage.swift
    Sources/HitTestInput/Storage.swift
    Sources/HitTestLayout/Storage.swift
    Sources/HitTestAnimation/Storage.swift
)
kinds=('@exclusivity(unchecked)' 'unowned(unsafe)' 'Unmanaged' '_withUnsafeGuaranteedRef')
quiet=${1:-}

status=0
declare -A total
for k in "${kinds[@]}"; do total[$k]=0; done
while IFS= read -r f; do
    code=$(sed 's://.*$::' "$f")
    line=""
    for k in "${kinds[@]}"; do
        n=$(printf '%s\n' "$code" | grep -oF -- "$k" | wc -l || true)
        total[$k]=$(( ${total[$k]} + n ))
        [ "$n" -gt 0 ] && line+=" $k=$n"
    done
    [ -z "$line" ] && continue
    [ "$quiet" = --quiet ] || echo "$f:$line"
    ok=0
    for a in "${allowed[@]}"; do [ "$f" = "$a" ] && ok=1; done
    if [ $ok = 0 ]; then
        echo "error: $f holds unsafe escapes outside its module's storage file (${allowed[*]})" >&2
        status=1
    fi
    # No public or open declaration may carry `@exclusivity(unchecked)`.
    if printf '%s\n' "$code" | grep -nE '@exclusivity\(unchecked\).*\b(public|open)\b' >/dev/null; then
        printf '%s\n' "$code" | grep -nE '@exclusivity\(unchecked\).*\b(public|open)\b' |
            sed "s|^|error: $f:|;s|\$| (public declaration with @exclusivity(unchecked))|" >&2
        status=1
    fi
done < <(find Sources -name '*.swift' | sort)
# Other underscored standard-library entry points (`x._name(`, `Swift._name`) anywhere.
if grep -rnE '\._[a-zA-Z]+(\(|\s*\{)' --include='*.swift' Sources | grep -v '^\s*//' |
    grep -vF '_withUnsafeGuaranteedRef' | grep -vE "$(IFS='|'; echo "${allowed[*]}")" >&2; then
    echo "error: underscored entry points outside the storage files (above)" >&2
    status=1
fi
summary="escapes:"
for k in "${kinds[@]}"; do summary+=" $k ${total[$k]};"; done
echo "$summary"
exit $status
