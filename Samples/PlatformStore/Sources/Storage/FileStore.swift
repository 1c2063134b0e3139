import Foundation
import Handles

#if os(Linux)
import Glibc

/// Open files, one store for the process (Linux).
public final class FileStore: @unchecked Sendable {
    public static let shared = FileStore()

    public private(set) var openFiles: [FileHandleID: String] = [:]
    private var next = 1

    private init() {}

    public func open(_ path: String) -> FileHandleID {
        let id = FileHandleID(rawValue: next)
        next += 1
        openFiles[id] = path
        return id
    }

    public func close(_ id: FileHandleID) {
        openFiles[id] = nil
    }

    public func modificationDate(of id: FileHandleID) -> Date? {
        openFiles[id].map { _ in Date(timeIntervalSince1970: 0) }
    }

    public var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }
}
#elseif os(Windows)
import WinSDK

/// Open files, one store for the process (Windows).
public final class FileStore: @unchecked Sendable {
    public static let shared = FileStore()

    public private(set) var openFiles: [FileHandleID: String] = [:]
    private var next = 1

    private init() {}

    public func open(_ path: String) -> FileHandleID {
        let id = FileHandleID(rawValue: next)
        next += 1
        openFiles[id] = path
        return id
    }

    public func close(_ id: FileHandleID) {
        openFiles[id] = nil
    }

    public func modificationDate(of id: FileHandleID) -> Date? {
        openFiles[id].map { _ in Date(timeIntervalSince1970: 0) }
    }

    public func nativeHandle(for id: FileHandleID) -> HANDLE? { nil }
}
#elseif canImport(Darwin)
/// Open files, one store for the process (Apple platforms).
public final class FileStore: @unchecked Sendable {
    public static let shared = FileStore()

    public private(set) var openFiles: [FileHandleID: String] = [:]
    private var next = 1

    private init() {}

    public func open(_ path: String) -> FileHandleID {
        let id = FileHandleID(rawValue: next)
        next += 1
        openFiles[id] = path
        return id
    }

    public func close(_ id: FileHandleID) {
        openFiles[id] = nil
    }

    public func modificationDate(of id: FileHandleID) -> Date? {
        openFiles[id].map { _ in Date(timeIntervalSince1970: 0) }
    }

    public var pageSize: Int { Int(getpagesize()) }
}
#endif
