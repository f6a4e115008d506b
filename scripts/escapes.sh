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
# The backing fields of the public classes that keep `@exclusivity(unchecked)` in their class's
# own file, each named (file:field; never a public or open declaration, never any other escape
# there). Each is on the replay's hot path and is either reached from another module (a `package`
# field: the optimizer cannot see every access, so each would pay a dynamic check) or mutated in
# place around calls; an internal field accessed only in one statement needs no attribute (the
# whole-module optimizer proves it and drops the checks). See Core/Storage.swift, "Left in class
# files", for how each was measured.
unchecked_fields=(
    Sources/HitTestCore/Views/View.swift:core
    Sources/HitTestCore/Views/View.swift:node
    Sources/HitTestCore/Views/View.swift:storedSubviews
    Sources/HitTestCore/Views/View.swift:layoutState
    Sources/HitTestCore/Views/View.swift:inputAttachment
    Sources/HitTestCore/Gestures/GestureRecognizer.swift:actions
    Sources/HitTestCore/Gestures/GestureRecognizer.swift:arbiter
    Sources/HitTestCore/Gestures/GestureRecognizer.swift:logTexts
    Sources/HitTestInput/Touches/Application.swift:fields
    Sources/HitTestInput/Gestures/DiscreteRecognizers.swift:tapFields
    Sources/HitTestInput/Gestures/DiscreteRecognizers.swift:pressFields
    Sources/HitTestInput/Gestures/DiscreteRecognizers.swift:swipeFields
    Sources/HitTestInput/Scrolling/ScrollView.swift:scrollFields
    Sources/HitTestInput/Scrolling/ScrollView.swift:view
    Sources/HitTestInput/Scrolling/ScrollView+Recognizers.swift:scrollView
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
    if [ $ok = 0 ] && [ "$line" = " @exclusivity(unchecked)=$(printf '%s\n' "$code" | grep -oF '@exclusivity(unchecked)' | wc -l)" ]; then
        # Only `@exclusivity(unchecked)`, and each on a listed field of this file.
        ok=1
        while IFS= read -r decl; do
            field=$(printf '%s\n' "$decl" | sed -E 's/.*\bvar ([A-Za-z_][A-Za-z0-9_]*).*/\1/')
            if ! printf '%s\n' "${unchecked_fields[@]}" | grep -qxF "$f:$field"; then
                echo "error: $f: @exclusivity(unchecked) on '$field', which is not a listed backing field (unchecked_fields)" >&2
                status=1
            fi
        done < <(printf '%s\n' "$code" | grep -F '@exclusivity(unchecked)')
    fi
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
