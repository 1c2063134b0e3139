/// Writes the app's log. The shared logger logs everything in debug builds.
@MainActor
final class Logger {

    static var shared: Logger = {
        let logger = Logger()
        #if DEBUG
        logger.minimumLevel = .debug
        #endif
        return logger
    }()

    enum Level: Int, Comparable, Sendable {
        case debug
        case info
        case error

        static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    var minimumLevel: Level = .info

    private(set) var entries: [String] = []

    /// Logs `message` with the file it came from; messages below `minimumLevel` are dropped.
    func log(_ message: String, level: Level = .info, file: String = #fileID) {
        guard level >= minimumLevel else { return }
        entries.append("[\(file)] \(message)")
    }
}
