#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
