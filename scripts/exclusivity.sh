#!/usr/bin/env bash
# The hot stored fields of the public classes carry no `@exclusivity(unchecked)` (the attribute
# lives only in the storage files: scripts/escapes.sh), so each stays free of dynamic
# exclusivity checks only while the whole-module optimizer can prove that no access to it
# overlaps another: the field is internal (the other layers use a package face over it), and
# nothing mutates it in place around a call the optimizer cannot see into (an `Array` append
# that may grow: such edits go through `editTakenOut`; see Core/Storage.swift, "Fields of the
# public classes"). An edit that breaks this compiles and passes every test, and costs a
# runtime call on every access; this check compiles HitTestCore, HitTestInput and
# HitTestLayout to optimized SIL, as a release build does, and fails if any access to a listed
# field is still checked at run time or goes through a key path applied at run time. The lists
# below are the one list of those fields (the back references are the `Unretained` ones).
# Usage: bash scripts/exclusivity.sh   (KEEP_SIL=1 keeps the SIL files and prints where)
set -euo pipefail
cd "$(dirname "$0")/.."

# Type.field, as SIL names them (a nested type with its outer type's name first).
fields_core=(
    View.storedCore View.storedNode View.storedSubviews View.layoutState View.storedInputAttachment
    GestureRecognizer.actions GestureRecognizer.logTexts GestureRecognizer.storedArbiter
    View._storedSuperview View._storedWindow View._owningController Window._applicationResponder
)
fields_input=(
    TapGestureRecognizer.tapFields LongPressGestureRecognizer.pressFields
    SwipeGestureRecognizer.swipeFields ScrollView.scrollFields
    ScrollViewPanGestureRecognizer._scrollView ScrollView.TickTarget._view
)
fields_layout=(EngineItem._view EngineItem._host AutoLayoutNode._view LayoutConstraint._installedOn)

out=$(mktemp -d)
if [ -n "${KEEP_SIL:-}" ]; then echo "exclusivity: SIL kept in $out" >&2; else trap 'rm -rf "$out"' EXIT; fi
swiftc=$(command -v swiftc)
common=(-parse-as-library -whole-module-optimization -O -swift-version 6 -package-name hittestkit
    -module-cache-path "$out/cache" -I "$out")
c_modules=(-Xcc -fmodule-map-file=CSources/CHitTest/include/module.modulemap -Xcc -ICSources/CHitTest/include
    -Xcc -fmodule-map-file=CSources/CLayoutSolver/include/module.modulemap -Xcc -ICSources/CLayoutSolver/include)

"$swiftc" -module-name HitTestCore "${common[@]}" "${c_modules[@]}" \
    -emit-module -emit-module-path "$out/HitTestCore.swiftmodule" -emit-sil -o "$out/HitTestCore.sil" \
    $(find Sources/HitTestCore -name '*.swift' | sort)
"$swiftc" -module-name HitTestInput "${common[@]}" "${c_modules[@]}" \
    -emit-sil -o "$out/HitTestInput.sil" $(find Sources/HitTestInput -name '*.swift' | sort)
"$swiftc" -module-name HitTestLayout "${common[@]}" "${c_modules[@]}" \
    -emit-sil -o "$out/HitTestLayout.sil" $(find Sources/HitTestLayout -name '*.swift' | sort)

python3 - "$out/HitTestCore.sil" "${fields_core[*]}" "$out/HitTestInput.sil" "${fields_input[*]}" \
    "$out/HitTestLayout.sil" "${fields_layout[*]}" <<'PY'
import re, sys
status = 0
args = sys.argv[1:]
for sil, names in zip(args[0::2], args[1::2]):
    seen, checked, unfolded = set(), {}, {}
    address = {}
    for line in open(sil):
        # A key path to the field still applied at run time (`editTakenOut` not inlined, or its
        # key path not a literal) hides the accesses from this check and checks them at run time.
        for m in re.finditer(r'stored_property #([\w.]+)', line if ' keypath ' in line else ''):
            unfolded[m.group(1)] = unfolded.get(m.group(1), 0) + 1
        if line.startswith('sil '):
            address = {}
        m = re.match(r'\s*(%\d+) = ref_element_addr .*#([\w.]+)', line)
        if m:
            address[m.group(1)] = m.group(2)
            seen.add(m.group(2))
        m = re.match(r'\s*(?:%\d+ = )?begin_(?:unpaired_)?access \[\w+\] \[dynamic\][^%]* (%\d+)', line)
        if m and m.group(1) in address:
            field = address[m.group(1)]
            checked[field] = checked.get(field, 0) + 1
    for name in names.split():
        if name not in seen:
            print(f"error: {sil.split('/')[-1]}: no access to {name} (renamed? update scripts/exclusivity.sh)")
            status = 1
        elif name in unfolded:
            print(f"error: {name}: {unfolded[name]} key paths to it are applied at run time "
                  "(not folded into direct accesses)")
            status = 1
        elif name in checked:
            print(f"error: {name}: {checked[name]} accesses keep a dynamic exclusivity check "
                  "(an in-place edit around an unseen call, or a field no longer internal)")
            status = 1
    print(f"{sil.split('/')[-1].removesuffix('.sil')}: {len(names.split())} hot fields, "
          f"{sum(checked.get(n, 0) for n in names.split())} checked accesses")
sys.exit(status)
PY
