import HitTestCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The one file of HitTestAnimation that uses an unchecked conversion or `Unmanaged`.

extension View {
    /// The view's running animations (the core's `animationRecord`, typed).
    ///
    /// Invariant: only this module writes `animationRecord`, and only through this property,
    /// so the record is always a `ViewAnimationState`.
    var animationState: ViewAnimationState? {
        get { animationRecord.map { unsafeDowncast($0, to: ViewAnimationState.self) } }
        set { animationRecord = newValue }
    }
}

/// The thread-local slot of `AnimationContext.current`: a retained context per thread,
/// released by the key's destructor when the thread ends.
///
/// Invariant: the slot holds either nothing or a pointer made by `Unmanaged.passRetained` of
/// an `AnimationContext`, owned by the slot; `install(_:)` runs only on an empty slot and only
/// the destructor releases it, so `context` never reads a released object.
enum AnimationContextSlot {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<AnimationContext>.fromOpaque(raw).release()
        }
        precondition(status == 0, "HitTestKit: pthread_key_create failed (\(status))")
        return key
    }()

    /// The calling thread's context, if one was installed.
    static var context: AnimationContext? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<AnimationContext>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Installs `context` as the calling thread's (the slot is empty).
    static func install(_ context: AnimationContext) {
        pthread_setspecific(key, Unmanaged.passRetained(context).toOpaque())
    }
}
