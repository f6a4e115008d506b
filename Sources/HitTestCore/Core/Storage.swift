#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one file of HitTestCore that uses unsafe escapes (`unowned(unsafe)`, `Unmanaged`,
// `_withUnsafeGuaranteedRef`, `@exclusivity(unchecked)`). Every other file reaches them only
// through the names below; `scripts/escapes.sh` fails CI if one appears anywhere else in
// this module.
//
// Fields of the public classes: a public class cannot inherit its fields from a storage class
// here, so its hot stored fields (listed in `scripts/exclusivity.sh`) are declared in its own
// file with no attribute, and kept free of dynamic exclusivity checks by two rules instead.
// Each is internal, so the whole-module optimizer sees every access to it: the other layers go
// through a `package` face, which the optimizer inlines here, or read it through a `package`
// getter with an internal setter (a setter or `_modify` open to another module would let an
// access begin there). And no access to it stays open around a call the optimizer cannot see
// into, so it proves none can overlap another and drops the checks: an in-place edit that
// calls into `Array` (an append or insert that may grow the buffer) goes through
// `editTakenOut(_:_:_:)` below. A field that broke either rule would pay a runtime call on
// every access (about 76 instructions); `scripts/exclusivity.sh` compiles the modules to
// optimized SIL in CI and fails if one does.
//
// The invariants that make them safe, once for the whole module:
//
// - Thread confinement. An application, its windows, views, touches, events, recognizers and
//   everything of the input pipeline are used from one thread at a time (the library is not
//   `Sendable` there); only a `FrozenTree` crosses threads, and it holds none of these. So no
//   two accesses to the same stored property can overlap from two threads.
// - No reentrant access. The fields held with `@exclusivity(unchecked)` are plain values and
//   arrays that the code reads or writes in one statement, or mutates in place (`append`,
//   `removeAll`) without calling user code (handlers, delegates, overrides) while the
//   mutation is open; user code runs between such accesses, never inside one, so an access
//   never begins while another to the same field is in progress.
// - Back references are cleared before their target dies. Each `Unretained` field is a
//   back reference (view → superview, window and controller; window → application, written by
//   HitTestInput through `Window.setApplicationResponder(_:)`; the index → its views; and the
//   other layers' own, each listed with its clearing in that layer's Storage.swift).
//   The owner of the target holds it strongly, and the target's `deinit` (or the detach that
//   ends the relation) clears every back reference to it: `View.deinit` and
//   `removeFromSuperview()` (superview, window; the view's input record, dropped first in
//   `deinit`, clears its recognizers' view), `Window`/`ViewController` (controller), the
//   application's `deinit` and `removeWindow` (the window's application, HitTestInput),
//   `CoreTree.unregister` (the index's slot); Auto Layout's records of a view (HitTestLayout,
//   which holds its views through `Unretained` only: see its Storage.swift) are cleared by the
//   view's `deinit` through `AutoLayoutAttachment.viewWillDeinit()`. So a stored unretained
//   reference is either nil or a live object.
// - Borrowed references (`Unretained.withObject`) are used only inside the call, while the
//   reference is known live (see above) and nothing in the body can release the object.

// MARK: - Edits of a hot field

/// Runs `edit` on the collection at `field` of `owner`, taken out of the field and put back
/// after: the field holds an empty collection meanwhile, so `edit` (an `Array` call the
/// optimizer cannot see into) runs outside any access to the field, and every access to the
/// field is one instantaneous read or write (see "Fields of the public classes" above; the key
/// path is a literal at each call, which the optimizer turns into the field's address). Taking
/// the value out keeps its buffer unique, so the edit does not copy it. `edit` must not read
/// the field (it holds the empty collection until `edit` returns).
@inlinable @inline(__always)
package func editTakenOut<Owner: AnyObject, Value: RangeReplaceableCollection, Result>(
    _ owner: Owner, _ field: ReferenceWritableKeyPath<Owner, Value>, _ edit: (inout Value) -> Result
) -> Result {
    var value = owner[keyPath: field]
    owner[keyPath: field] = Value()
    defer { owner[keyPath: field] = value }
    return edit(&value)
}

// MARK: - Back references

/// An unretained reference (`unowned(unsafe)`) that can be nil: no retain on store, no weak
/// side table; loads through `object` retain the result as a strong reference would. As a
/// property wrapper (`@Unretained var superview: View? = nil`) it is a back reference field:
/// the field reads and writes the object, `$field` is the reference itself.
/// Invariant: see "Back references are cleared before their target dies" above.
@propertyWrapper
@usableFromInline package struct Unretained<Object: AnyObject> {
    @usableFromInline var reference: Unmanaged<Object>?

    /// A reference to `object` (nil: none), not retained.
    @inlinable @inline(__always) package init(_ object: Object?) {
        reference = object.map { Unmanaged.passUnretained($0) }
    }

    /// A back reference field holding `wrappedValue`, not retained.
    @inlinable @inline(__always) package init(wrappedValue: Object?) { self.init(wrappedValue) }

    /// The referenced object; setting it stores the new one unretained.
    @inlinable @inline(__always) package var wrappedValue: Object? {
        get { object }
        set { self = Unretained(newValue) }
    }

    /// The reference itself (`$field`): identity tests, borrows and copies without a retain.
    @inlinable @inline(__always) package var projectedValue: Unretained<Object> {
        get { self }
        set { self = newValue }
    }

    /// The referenced object (a strong reference from here on), or nil.
    @inlinable @inline(__always) package var object: Object? { reference?.takeUnretainedValue() }

    /// Whether a reference is held (no retain).
    @inlinable @inline(__always) package var isNil: Bool { reference == nil }

    /// Whether both refer to the same object (or both to none).
    @inlinable @inline(__always) package func isIdentical(to other: Unretained<Object>) -> Bool {
        reference?.toOpaque() == other.reference?.toOpaque()
    }

    /// Runs `body` on the object without retaining it; nil if there is none.
    @inlinable @inline(__always) package func withObject<R>(_ body: (Object) -> R) -> R? {
        reference?._withUnsafeGuaranteedRef(body)
    }
}

// MARK: - C context pointers

/// `object` as a C context pointer, not retained: the caller keeps `object` alive for as long
/// as C may hand the pointer back (`HookContext.run` wraps the C call in
/// `withExtendedLifetime`).
@inline(__always) func unretainedContext(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}

/// The object behind a context pointer made by `unretainedContext(_:)`.
@inline(__always) func object<T: AnyObject>(fromContext raw: UnsafeMutableRawPointer, as _: T.Type) -> T {
    Unmanaged<T>.fromOpaque(raw).takeUnretainedValue()
}

// MARK: - The thread's change recorder

/// The thread-local slot behind `ChangeRecording`: a retained box per thread, released when
/// the recorder is replaced or the thread ends.
///
/// Invariant: the slot holds either nothing or a pointer made by `Unmanaged.passRetained` of a
/// `RecorderBox`, owned by the slot; only `set(_:)` and the key's destructor release it.
enum ThreadSlot {
    private final class RecorderBox {
        let recorder: any ViewChangeRecorder
        init(_ recorder: any ViewChangeRecorder) { self.recorder = recorder }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<AnyObject>.fromOpaque(raw).release()
        }
        precondition(status == 0, "HitTestKit: pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's recorder.
    @inline(__always) static var recorder: (any ViewChangeRecorder)? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<RecorderBox>.fromOpaque(raw).takeUnretainedValue().recorder
    }

    /// Replaces the calling thread's recorder.
    static func set(_ recorder: (any ViewChangeRecorder)?) {
        let old = pthread_getspecific(key)
        let new = recorder.map { Unmanaged.passRetained(RecorderBox($0)).toOpaque() }
        pthread_setspecific(key, new)
        if let old { Unmanaged<RecorderBox>.fromOpaque(old).release() }
    }
}

// MARK: - Hot state of the internal classes
//
// An internal class inherits its hot mutable fields from a storage class here, so that the
// class's own file carries no escape. The fields are accessed without dynamic exclusivity
// checks (thread confinement, no reentrant access: see above); they are internal to the
// package, never public. (The input pipeline's are in HitTestInput/Storage.swift.)

/// `CoreTree`'s per-slot views and query state.
package class CoreTreeStorage {
    /// The view of each slot (slot = handle & 0xFFFFFF), unretained: `register` sets it,
    /// `unregister` (called before the view dies or leaves the index) clears it.
    @exclusivity(unchecked) final var views: [Unretained<View>] = []
    /// Views with a `pointInsideHandler` or `hitTestHandler` or of a class of your own
    /// (`View.hasHandler`): the C walk needs hooks only when > 0.
    @exclusivity(unchecked) final var handlerCount = 0
    /// Hit tests in progress on this index (handlers run inside them).
    @exclusivity(unchecked) final var activeQueries = 0
    /// False after any change to the C index until `ht_tree_prepare` has run.
    @exclusivity(unchecked) final var prepared = false
}
