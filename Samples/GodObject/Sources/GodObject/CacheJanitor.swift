/// Frees memory when the system asks.
@MainActor
final class CacheJanitor {
    func freeMemory() -> Int {
        let freed = AppServices.shared.cacheSizeInBytes
        AppServices.shared.clearImageCache()
        AppServices.shared.log("freed \(freed) bytes, \(AppServices.shared.cachedImageCount) images left")
        if AppServices.shared.logLines.count > 100 {
            AppServices.shared.clearLog()
        }
        return freed
    }
}
