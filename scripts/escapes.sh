#!/usr/bin/env bash
# The unsafe escapes in the Swift sources: `@exclusivity(unchecked)`, `unowned(unsafe)`,
# `Unmanaged` and `_withUnsafeGuaranteedRef` (and any other underscored standard-library entry
# point, `._name(`). Prints the count per kind and per file (code only: comments are stripped),
# and fails if one appears outside a module's storage file (but for the listed backing fields)
# or on a public or open declaration.
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
# Files that may still hold `@exclusivity(unchecked)` on internal, package or private backing
# fields of the public classes (never on a public or open declaration, never any other escape):
# their hot fields are read on every replay step (see Core/Storage.swift, "Left in class files").
# In the input layer's files (`record_only` below) only one kind of line may carry it: a class's
# one record of stored fields (`final var xFields = XFields()`, a struct read and written in
# place), or an `unowned` back reference cleared by its target's deinit.
record_only='^Sources/HitTestInput/'
record_line='@exclusivity\(unchecked\) (final var [a-zA-Z]*[fF]ields = [A-Za-z]*Fields\(\)$|unowned var )'
unchecked_fields_allowed=(
    Sources/HitTestCore/Gestures/GestureRecognizer.swift
    Sources/HitTestCore/Views/Responder.swift
    Sources/HitTestCore/Views/View.swift
    Sources/HitTestCore/Views/Window.swift
    Sources/HitTestInput/Gestures/ContinuousRecognizers.swift
    Sources/HitTestInput/Gestures/DiscreteRecognizers.swift
    Sources/HitTestInput/Scrolling/ScrollView+Recognizers.swift
    Sources/HitTestInput/Scrolling/ScrollView.swift
    Sources/HitTestInput/Touches/Application.swift
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
        for a in "${unchecked_fields_allowed[@]}"; do
            # Only `@exclusivity(unchecked)` may appear in these.
            [ "$f" = "$a" ] && [ "$line" = " @exclusivity(unchecked)=$(printf '%s\n' "$code" | grep -oF '@exclusivity(unchecked)' | wc -l)" ] && ok=1
        done
    fi
    if [ $ok = 0 ]; then
        echo "error: $f holds unsafe escapes outside its module's storage file (${allowed[*]})" >&2
        status=1
    fi
    if [[ $f =~ $record_only ]] && [ "$ok" = 1 ] && ! printf '%s\n' "${allowed[@]}" | grep -qxF "$f"; then
        bad=$(printf '%s\n' "$code" | grep -nF '@exclusivity(unchecked)' | grep -vE "$record_line" || true)
        if [ -n "$bad" ]; then
            printf '%s\n' "$bad" | sed "s|^|error: $f:|;s|\$| (in the input layer, only a class's record of fields or an unowned back reference)|" >&2
            status=1
        fi
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
